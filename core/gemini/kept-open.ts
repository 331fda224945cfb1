import type { GoogleGenAI } from '@google/genai';
import { IDLE_KEEP_MS, openGeminiConnections, trafficOf } from './connections';

/** How often a process looks at its connections: well inside IDLE_KEEP_MS, so none is let go unused. */
export const KEEP_OPEN_EVERY_MS = Math.round(IDLE_KEEP_MS * 0.75);
/** A look's model lookups are given this long; one that does not answer only leaves its connection to close. */
const LOOK_TIMEOUT_MS = 5_000;

export interface KeptOpen {
  /**
   * Unless at least `count` requests left for Gemini since the last look (or since the start), `count` model
   * lookups at once, one on each kept connection; resolves with how many answered, 0 when it left them alone.
   */
  refreshIfIdle: () => Promise<number>;
  stop: () => void;
}

/**
 * Keeps the connections opened at start open through quiet minutes. They are let go after IDLE_KEEP_MS unused,
 * so the first ask after a quiet minute paid for a new connection (a TLS handshake to Google). Every `everyMs` a
 * process that sent fewer requests than it keeps connections reads the model's metadata (free, answered at once)
 * on each of them, which restarts their idle clocks and opens again any the far side closed; a busier one keeps
 * them open by asking. The timer alone keeps no process running. Started once the connections are open.
 */
export function keepGeminiConnectionsOpen(gemini: GoogleGenAI, model: string, count: number, everyMs = KEEP_OPEN_EVERY_MS): KeptOpen {
  const traffic = trafficOf(gemini);
  let seen = traffic?.sent ?? 0;
  let looking = false;
  const refreshIfIdle = async () => {
    const sentSince = traffic ? traffic.sent - seen : 0;
    if (looking || sentSince >= count) {
      seen = traffic?.sent ?? seen;
      return 0;
    }
    looking = true;
    try {
      return await openGeminiConnections(gemini, model, count, LOOK_TIMEOUT_MS);
    } finally {
      looking = false;
      // The look's own lookups are no one's asks.
      seen = traffic?.sent ?? seen;
    }
  };
  const timer = setInterval(() => void refreshIfIdle(), everyMs);
  timer.unref();
  return { refreshIfIdle, stop: () => clearInterval(timer) };
}
