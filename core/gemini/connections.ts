import type { GoogleGenAI } from '@google/genai';
import { Agent } from 'undici';
import { lightFetchOver } from './light-fetch';
import { currentGate, GatedDispatcher, notSent, opened } from './send-gate';

/**
 * How long an idle connection to Gemini is kept. Long enough that the connections opened at start are still
 * there for the first burst of asks and between a quiet minute's asks (undici's own default is 4 s); an answer
 * stream itself has no timeout here, as the official client sets none (its deadlines are the callers').
 */
export const IDLE_KEEP_MS = 60_000;

/**
 * The connections the official Gemini client's requests travel on: kept alive and reused, as many at once as
 * requests need. The client's default (Node's global dispatcher) keeps an idle one 4 s, so a quiet process
 * paid a new connection (a TLS handshake to Google) for most asks.
 */
export function geminiConnections(): Agent {
  return new Agent({ keepAliveTimeout: IDLE_KEEP_MS, keepAliveMaxTimeout: IDLE_KEEP_MS, headersTimeout: 0, bodyTimeout: 0 });
}

/** How many requests a client has sent to Gemini: what tells an idle process from a busy one (kept-open.ts). */
export interface GeminiTraffic {
  sent: number;
}

// Each client made by createGemini, with the count its fetch keeps.
const traffics = new WeakMap<GoogleGenAI, GeminiTraffic>();

export const noteTraffic = (gemini: GoogleGenAI, traffic: GeminiTraffic) => traffics.set(gemini, traffic);

/** The requests a client has sent so far, or null for a client whose fetch does not count them. */
export const trafficOf = (gemini: GoogleGenAI): GeminiTraffic | null => traffics.get(gemini) ?? null;

/**
 * The client's fetch over `agent` (light-fetch.ts: the request dispatched straight onto the connections, the reply
 * a standard Response), counting each request in `traffic`; a request made under a send gate waits for it
 * (send-gate.ts).
 */
export function fetchOver(agent: Agent, traffic?: GeminiTraffic): typeof fetch {
  // A request built before its search was admitted leaves only once it is (send-gate.ts).
  const dispatcher = new GatedDispatcher(agent, () => {
    if (traffic) traffic.sent++;
  });
  const dispatched = lightFetchOver(dispatcher);
  return async (input, init) => {
    const gate = currentGate();
    try {
      return await dispatched(input, init);
    } catch (err) {
      // fetch reports a request failed before it left as a network failure; a shut gate is not one.
      if (gate && !(await opened(gate))) throw notSent();
      throw err;
    }
  };
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
