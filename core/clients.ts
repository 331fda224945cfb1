import { GoogleGenAI } from '@google/genai';
import Stripe from 'stripe';
import type { Config } from './config';
import type { Logger } from './logger';
import { fetchOver, geminiConnections, noteTraffic } from './gemini/connections';
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
 * The official Gemini client, its requests on kept-alive connections; `GEMINI_BASE_URL` points it at the
 * stand-in or a proxy. `logger` receives the
 * operator warnings about the model (refused thinking settings, a missing model, a refused key).
 */
export function createGemini(config: Config, logger?: Logger): GoogleGenAI {
  const traffic = { sent: 0 };
  const gemini = new GoogleGenAI({
    apiKey: config.gemini.apiKey,
    // Its requests travel on connections kept open and reused (core/gemini/connections.ts), and are counted, so
    // an idle process can keep them open (core/gemini/kept-open.ts).
    httpOptions: {
      fetch: fetchOver(geminiConnections(), traffic),
      ...(config.gemini.baseUrl ? { baseUrl: config.gemini.baseUrl } : {}),
    },
  });
  noteTraffic(gemini, traffic);
  if (logger) setGeminiLogger(gemini, logger);
  return gemini;
}
