import type { GoogleGenAI } from '@google/genai';
import { Agent } from 'undici';

/**
 * How long an idle connection to Gemini is kept. Long enough that the connections opened at start are still
 * there for the first burst of asks and between a quiet minute's asks (undici's own default is 4 s); an answer
 * stream itself has no timeout here, as the official client sets none (its deadlines are the callers').
 */
const IDLE_KEEP_MS = 60_000;

/**
 * The connections the official Gemini client's requests travel on: kept alive and reused, as many at once as
 * requests need. The client's default (Node's global dispatcher) keeps an idle one 4 s, so a quiet process
 * paid a new connection (a TLS handshake to Google) for most asks.
 */
export function geminiConnections(): Agent {
  return new Agent({ keepAliveTimeout: IDLE_KEEP_MS, keepAliveMaxTimeout: IDLE_KEEP_MS, headersTimeout: 0, bodyTimeout: 0 });
}

/** The client's fetch over `agent` (the global fetch, so requests and replies are the types the client expects). */
export function fetchOver(agent: Agent): typeof fetch {
  return (input, init) => fetch(input, { ...init, dispatcher: agent } as RequestInit);
}

/**
 * Opens `count` connections to Gemini before any ask needs one: that many model lookups at once (a metadata
 * read Gemini answers at once, at no cost), each on a connection of its own, which then stays open for the asks.
 * Resolves with how many answered; never rejects (a Gemini that cannot be reached is the start-up check's to
 * report, core/gemini/model.ts).
 */
export async function openGeminiConnections(gemini: GoogleGenAI, model: string, count: number, timeoutMs: number): Promise<number> {
  const signal = AbortSignal.timeout(timeoutMs);
  const answered = await Promise.allSettled(
    Array.from({ length: count }, () => gemini.models.get({ model, config: { abortSignal: signal } })),
  );
  return answered.filter((a) => a.status === 'fulfilled').length;
}
