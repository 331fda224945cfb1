import { Hono, type MiddlewareHandler } from 'hono';
import { askRequestSchema } from '../../core/contract/ask';
import { observeAskFirstByte, streamClosed, streamOpened } from '../../core/metrics';
import { runChargedSearch } from '../../core/search/charged-search';
import { type Admission, askAdmission } from '../admission/ask-admission';
import { deadline } from '../../core/gemini/deadline';
import { userSlots } from '../admission/user-slots';
import { creditLikelyLeft } from '../../db/accounts';
import { ANSWER_HEADERS, answerStream, headWithFirstText } from '../answer-stream';
import type { AppDeps, AppEnv } from '../deps';
import { requireUser, signedIn } from '../middleware/session';
import { tooFast } from '../middleware/user-rate-limit';
import { jsonBody } from '../validate';
import { parseAskInput } from './ask-input';
import { busy, refusal } from './ask-refusals';
import { ALLOWANCES } from '../../core/plans';

/**
 * POST /api/ask {ques, web, timezone?}: the HTTP side of one charged search (core/search/charged-search.ts).
 * The status line waits for the first answer text, so a search that fails before any text is an ordinary
 * error reply; after it, the text streams and a late failure is said at the end of the text.
 */
interface AskEnv extends AppEnv {
  Variables: AppEnv['Variables'] & { admission: Admission; creditLikely: boolean };
}

export function askRoutes(deps: AppDeps) {
  const app = new Hono<AskEnv>();
  const { queuePrefix: prefix, userRatePerMinute: perMinute } = deps.config;
  const maxSearches = deps.config.search.concurrencyPerUser;
  const gate = askAdmission(deps.redis, { prefix, perMinute, maxSearches });
  const slots = userSlots(deps.redis, { prefix });

  /**
   * Before the body is read: one Redis round trip counts the ask against the user's request rate and takes a
   * search slot (decision 026), and beside it (Redis and Postgres at once) a hint says whether a credit is very
   * likely left; then Gemini is asked while the credit is taken instead of after (decision 024). A failed hint
   * only means no head start; it must not lose the slot just taken (the search itself then meets the failure).
   * A slot taken for an ask that is then refused (bad body, no credit, failure before any text) goes back here;
   * an answered ask's slot goes back when its answer ends.
   */
  const admitted: MiddlewareHandler<AskEnv> = async (c, next) => {
    const user = requireUser(c);
    // The body is read while Redis and Postgres answer; the validator after this reuses the text read here.
    c.req.text().catch(() => {});
    const [admission, creditLikely] = await Promise.all([
      gate.admit(user.id),
      creditLikelyLeft(deps.sql, user.id, ALLOWANCES).catch(() => false),
    ]);
    if (admission.kind === 'too_fast') throw tooFast(perMinute, admission.msBeforeNext);
    c.set('admission', admission);
    c.set('creditLikely', creditLikely);
    await next();
    // Hono turns a thrown error into the error reply before it gets here, and leaves it in `c.error`.
    if (c.error && admission.kind === 'admitted') {
      await slots.release(user.id, admission.token).catch((err) => c.get('log').warn({ err }, 'could not release search slot'));
    }
  };

  app.post('/api/ask', signedIn, admitted, jsonBody(askRequestSchema), async (c) => {
    const user = requireUser(c);
    const { ques, web, timezone, filters } = parseAskInput(c.req.valid('json'));
    // The order of refusals is the one from when the rate limit was a middleware: rate, then body, then slot.
    const admission = c.get('admission');
    if (admission.kind !== 'admitted') throw busy(maxSearches);
    const creditLikely = c.get('creditLikely');
    const slot = admission.token;
    const log = c.get('log');
    const arrived = performance.now();
    const release = () => slots.release(user.id, slot).catch((err) => log.warn({ err }, 'could not release search slot'));
    const abort = new AbortController();
    c.req.raw.signal.addEventListener('abort', () => abort.abort(), { once: true });
    const answer = answerStream(abort);
    // The user is waiting: a model that sends nothing for this long is given up, with a sentence (decision 032).
    const upstream = deadline(abort.signal, deps.config.search.answerIdleMs);
    let searchId = 0;
    const outcome = runChargedSearch(deps, {
      userId: user.id,
      input: { question: ques, website: web, timezone, filters },
      onText: (text) => {
        upstream.restart();
        answer.write(text);
      },
      onRecorded: (id) => {
        searchId = id;
      },
      signal: upstream.signal,
      answerWhileCharging: creditLikely,
    });
    void outcome.then(upstream.clear, upstream.clear);
    await Promise.race([answer.started, outcome]);
    if (!answer.hasText) throw refusal(await outcome);
    observeAskFirstByte((performance.now() - arrived) / 1000);
    streamOpened();
    outcome
      .then(
        (o) => {
          if ('unrecorded' in o && o.unrecorded) log.error({ err: o.unrecorded }, 'could not finish search record');
          answer.end(o.kind === 'failed' ? `\n\n[The answer is incomplete: ${o.error.message}]\n` : undefined);
        },
        (err: unknown) => answer.end(void log.error({ err }, 'search failed after its answer began')),
      )
      .finally(() => {
        streamClosed();
        return release();
      });
    // The search's events are read from GET /api/searches/:id once the answer has ended (docs/contract.md).
    headWithFirstText(c);
    return c.body(answer.body, 200, { ...ANSWER_HEADERS, 'x-search-id': String(searchId) });
  });

  return app;
}
