import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../deps';
import { presetHeaders } from './preset-headers';

export const NO_STORE = [['Cache-Control', 'no-store']] as const;

/**
 * Marks every reply `Cache-Control: no-store` unless the route chose otherwise: these replies carry a user's
 * data (timers, credits, answers), which no browser cache or shared proxy may keep for the next person.
 */
export function noStore() {
  return createMiddleware<AppEnv>((c, next) => presetHeaders(c, NO_STORE, next));
}
