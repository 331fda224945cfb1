import { Agent, fetch as undiciFetch } from 'undici';

/** How long an idle connection to Gemini is kept for the next request; after that a request opens a new one. */
const IDLE_KEEP_MS = 60_000;

/**
 * The fetch the official Gemini client is given: undici's own fetch on undici's own Agent, both from the one
 * npm package, so the pair keeps working whichever undici a newer Node bundles for its global fetch. The Agent
 * sets no header or body timeout (undici's default is 300 s): how long a call may take is its caller's deadline
 * (ASK_IDLE_TIMEOUT_SECONDS, TIMER_RUN_TIMEOUT_SECONDS), given to the client as an abort signal.
 */
export function geminiFetch(): typeof fetch {
  const agent = new Agent({ keepAliveTimeout: IDLE_KEEP_MS, keepAliveMaxTimeout: IDLE_KEEP_MS, headersTimeout: 0, bodyTimeout: 0 });
  return ((input: string | URL | Request, init?: RequestInit) =>
    undiciFetch(input as never, { ...(init as object), dispatcher: agent } as never)) as unknown as typeof fetch;
}
