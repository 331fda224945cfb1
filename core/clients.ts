import { GoogleGenAI } from '@google/genai';
import Stripe from 'stripe';
import type { Config } from './config';

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

/** The official Gemini client; `GEMINI_BASE_URL` points it at the stand-in or a proxy. */
export function createGemini(config: Config): GoogleGenAI {
  return new GoogleGenAI({
    apiKey: config.gemini.apiKey,
    ...(config.gemini.baseUrl ? { httpOptions: { baseUrl: config.gemini.baseUrl } } : {}),
  });
}
