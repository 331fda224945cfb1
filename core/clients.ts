import { GoogleGenAI } from '@google/genai';
import Stripe from 'stripe';
import type { Config } from './config';
import type { Logger } from './logger';
import { geminiFetch } from './gemini/fetch';
import { setGeminiLogger } from './gemini/model';

/** The official Stripe client, pointed at `STRIPE_API_URL` (the real API or the local stand-in). */
export function createStripe(config: Config): Stripe {
  const api = new URL(config.stripe.apiUrl);
  return new Stripe(config.stripe.secretKey, {
    host: api.hostname,
    port: api.port || (api.protocol === 'https:' ? 443 : 80),
    protocol: api.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 2,
    telemetry: false,
  });
}

/**
 * The official Gemini client with its one fetch (core/gemini/fetch.ts); `GEMINI_BASE_URL` points it at the
 * stand-in or a proxy. `logger` receives the operator warnings about the model (refused thinking settings, a
 * missing model, a refused key).
 */
export function createGemini(config: Config, logger?: Logger): GoogleGenAI {
  const gemini = new GoogleGenAI({
    apiKey: config.gemini.apiKey,
    httpOptions: {
      fetch: geminiFetch(),
      ...(config.gemini.baseUrl ? { baseUrl: config.gemini.baseUrl } : {}),
    },
  });
  if (logger) setGeminiLogger(gemini, logger);
  return gemini;
}
