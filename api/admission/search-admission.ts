import type { MiddlewareHandler } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { requireUser } from '../middleware/session';
import { tooFast } from '../middleware/user-rate-limit';
import { type Admission, askAdmission } from './ask-admission';
import { userSlots } from './user-slots';

/** The variables an admitted search request carries to its handler. */
export interface SearchEnv extends AppEnv {
  Variables: AppEnv['Variables'] & { admission: Admission; creditLikely: boolean };
}

/**
 * Admission of one charged search over HTTP (POST /api/ask, POST /v1/search): the same rate, slot and credit
 * hint for the page and for a token. Before the body is read, one Redis round trip counts the request against
 * the user's rate, takes a search slot (decision 026) and reads the credit hint (out-of-credit.ts), so Gemini is
 * asked while the credit is taken (decision 024) with no Postgres query before it (decision 068). A slot taken
 * for a request that is then refused (bad body, no credit, failure before any text) goes back here; an answered
 * search's slot goes back through `release` when its answer ends.
 */
export function searchAdmission(deps: AppDeps) {
  const { queuePrefix: prefix, userRatePerMinute: perMinute } = deps.config;
  const maxSearches = deps.config.search.concurrencyPerUser;
  const gate = askAdmission(deps.redis, { prefix, perMinute, maxSearches });
  const slots = userSlots(deps.redis, { prefix });

  const admitted: MiddlewareHandler<SearchEnv> = async (c, next) => {
    const user = requireUser(c);
    // The body is read while Redis answers; the validator after this reuses the text read here.
    c.req.text().catch(() => {});
    const admission = await gate.admit(user.id);
    if (admission.kind === 'too_fast') throw tooFast(perMinute, admission.msBeforeNext);
    c.set('admission', admission);
    c.set('creditLikely', admission.kind === 'admitted' && admission.creditLikely);
    await next();
    // Hono turns a thrown error into the error reply before it gets here, and leaves it in `c.error`.
    if (c.error && admission.kind === 'admitted') {
      await slots.release(user.id, admission.token).catch((err) => c.get('log').warn({ err }, 'could not release search slot'));
    }
  };

  return { admitted, slots, maxSearches };
}
