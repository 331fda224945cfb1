import type { Context, MiddlewareHandler } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { requireUser } from '../middleware/session';
import { tooFast } from '../middleware/user-rate-limit';
import { busy } from '../routes/ask-refusals';
import { type Admission, askAdmission } from './ask-admission';
import { userSlots } from './user-slots';

/** The variables a search request carries to its handler: its admission, still being decided when the handler starts. */
export interface SearchEnv extends AppEnv {
  Variables: AppEnv['Variables'] & { admission: Promise<Admission> };
}

/**
 * Admission of one charged search over HTTP (POST /api/ask, POST /v1/search): the same rate, slot and credit
 * hint for the page and for a token. One Redis round trip, shared with the asks of the same turn of the event
 * loop (ask-admission.ts, decision 094), counts the request against the user's rate, takes a search slot (decision
 * 026) and reads the credit hint (out-of-credit.ts). It is sent before the body is read and not waited for here:
 * the body is read and checked meanwhile, and the handler asks Gemini while Redis answers, the request leaving
 * only once the search is admitted (decision 092), with no Postgres query before it (decision 068).
 * `admittedSlot` is the handler's wait. A slot taken for a request that is then refused (bad body, no credit,
 * failure before any text) goes back here; an answered search's slot goes back through `release` when its answer
 * ends.
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
    const admission = gate.admit(user.id);
    // Waited for by the handler, or below; a Redis failure is the request's error there, not an unhandled one.
    admission.catch(() => {});
    c.set('admission', admission);
    await next();
    // Hono turns a thrown error into the error reply before it gets here, and leaves it in `c.error`.
    if (!c.error) return;
    const settled = await admission;
    // The order of refusals is the one from when the rate limit ran before the body was read: rate, then body.
    // A request the handler already refused for its rate (admittedSlot) keeps that reply.
    if (settled.kind === 'too_fast' && !(c.error instanceof ApiError && c.error.status === 429)) {
      throw tooFast(perMinute, settled.msBeforeNext);
    }
    if (settled.kind === 'admitted') {
      await slots.release(user.id, settled.token).catch((err) => c.get('log').warn({ err }, 'could not release search slot'));
    }
  };

  /**
   * The handler's wait for its admission: the user's search slot, how to give it back once the answer has
   * ended, and whether a credit is likely left; a refusal (rate, then slot) is thrown.
   */
  const admittedSlot = async (c: Context<SearchEnv>) => {
    const user = requireUser(c);
    const admission = await c.get('admission');
    if (admission.kind === 'too_fast') throw tooFast(perMinute, admission.msBeforeNext);
    if (admission.kind !== 'admitted') throw busy(maxSearches);
    const release = () =>
      slots.release(user.id, admission.token).catch((err) => c.get('log').warn({ err }, 'could not release search slot'));
    return { user, release, creditLikely: admission.creditLikely };
  };

  return { admitted, admittedSlot, slots, maxSearches };
}
