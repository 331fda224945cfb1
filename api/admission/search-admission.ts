import type { Context, MiddlewareHandler } from 'hono';
import type { Config } from '../../core/config';
import type { RedisClient } from '../../core/redis/client';
import type { AppEnv } from '../deps';
import { requireUser } from '../middleware/session';
import { userRateLimit } from '../middleware/user-rate-limit';
import { ApiError } from '../errors';
import { userSlots } from './user-slots';

/** The variables a search request carries: the token of the search slot it took, once it took one. */
export interface SearchEnv extends AppEnv {
  Variables: AppEnv['Variables'] & { searchSlot?: string };
}

/**
 * Admission of one charged search over HTTP (POST /api/ask, POST /v1/search): the same rate, slot and credit
 * hint for the page and for a token, in this order. `admitted`, before the body is read, counts the request
 * against the user's per-minute budget (userRateLimit, the one every costly route shares), so a request over it
 * reads and takes nothing. `admittedSlot`, the handler's first step once the body is valid, takes one of the
 * user's search slots and reads the credit hint (user-slots.ts, one Redis script). Refusals therefore come as
 * rate (429 with Retry-After), then body (400), then slot (429 busy). A slot taken for a request that is then
 * refused (no credit, a failure before any text) goes back before the reply, here; an answered search's slot goes
 * back through `release` when its answer ends.
 */
/** What admission is handed: the Redis that holds the rate, the slots and the credit hint, and their settings. */
export interface AdmissionDeps {
  redis: RedisClient;
  config: Pick<Config, 'queuePrefix' | 'userRatePerMinute' | 'search'>;
}

export function searchAdmission(deps: AdmissionDeps) {
  const { queuePrefix: prefix, userRatePerMinute: perMinute } = deps.config;
  const maxSearches = deps.config.search.concurrencyPerUser;
  const perUser = userRateLimit(deps.redis, { prefix, perMinute });
  const slots = userSlots(deps.redis, { prefix, max: maxSearches });
  const giveBack = (c: Context<SearchEnv>, userId: number, token: string) =>
    slots.release(userId, token).catch((err) => c.get('log').warn({ err }, 'could not release search slot'));

  const admitted: MiddlewareHandler<SearchEnv> = (c, next) =>
    perUser(c, async () => {
      await next();
      // Hono turns a thrown error into the error reply before it gets here, and leaves it in `c.error`.
      const token = c.get('searchSlot');
      if (c.error && token) await giveBack(c, requireUser(c).id, token);
    });

  /**
   * The handler's search slot: how to give it back once the answer has ended, and whether a credit is likely
   * left. A user whose every slot is in use is refused (429).
   */
  const admittedSlot = async (c: Context<SearchEnv>) => {
    const user = requireUser(c);
    const slot = await slots.take(user.id);
    if (slot.kind === 'busy') throw busy(maxSearches);
    c.set('searchSlot', slot.token);
    return { user, release: () => giveBack(c, user.id, slot.token), creditLikely: slot.creditLikely };
  };

  return { admitted, admittedSlot };
}

/** The user already has as many searches running as they may (SEARCH_CONCURRENCY_PER_USER). */
export const busy = (max: number) =>
  new ApiError(429, `You already have ${max} searches running. Please wait for one to finish, then try again.`, {
    headers: { 'retry-after': '5' },
    code: 'too_many_searches',
  });
