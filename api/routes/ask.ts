import { Hono } from 'hono';
import { askRequestSchema } from '../../core/contract/ask';
import { observeAskFirstByte, streamClosed, streamOpened } from '../../core/metrics';
import { runChargedSearch } from '../../core/search/charged-search';
import { userSlots } from '../../core/search/user-slots';
import { creditLikelyLeft } from '../../db/accounts';
import { ANSWER_HEADERS, answerStream } from '../answer-stream';
import type { AppDeps, AppEnv } from '../deps';
import { requireUser, signedIn } from '../middleware/session';
import { jsonBody } from '../validate';
import { parseAskInput } from './ask-input';
import { busy, refusal } from './ask-refusals';

/**
 * POST /api/ask {ques, web, timezone?}: the HTTP side of one charged search (core/search/charged-search.ts).
 * The status line waits for the first answer text, so a search that fails before any text is an ordinary
 * error reply; after it, the text streams and a late failure is said at the end of the text.
 */
export function askRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const slots = userSlots(deps.redis, { prefix: deps.config.queuePrefix, max: deps.config.search.concurrencyPerUser });

  app.post('/api/ask', signedIn, jsonBody(askRequestSchema), async (c) => {
    const user = requireUser(c);
    const { ques, web, timezone } = parseAskInput(c.req.valid('json'));
    // The credit check rides along with the slot (Redis and Postgres at once): when a credit is very likely
    // left, Gemini is asked while the credit is taken instead of after (decision 024). A failed check only means
    // no head start; it must not lose the slot just taken (the search itself then meets the failure).
    const [slot, creditLikely] = await Promise.all([slots.acquire(user.id), creditLikelyLeft(deps.sql, user.id).catch(() => false)]);
    if (!slot) throw busy(deps.config.search.concurrencyPerUser);
    const log = c.get('log');
    const arrived = performance.now();
    const release = () => slots.release(user.id, slot).catch((err) => log.warn({ err }, 'could not release search slot'));
    const abort = new AbortController();
    c.req.raw.signal.addEventListener('abort', () => abort.abort(), { once: true });
    const answer = answerStream(abort);
    let searchId = 0;
    const outcome = runChargedSearch(deps, {
      userId: user.id,
      input: { question: ques, website: web, timezone },
      onText: answer.write,
      onRecorded: (id) => {
        searchId = id;
      },
      signal: abort.signal,
      answerWhileCharging: creditLikely,
    });
    try {
      await Promise.race([answer.started, outcome]);
      if (!answer.hasText) throw refusal(await outcome);
    } catch (err) {
      await release();
      throw err;
    }
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
    // The search's events are read from GET /api/searches/:id once the answer has ended (CONTRACT.md).
    return c.body(answer.body, 200, { ...ANSWER_HEADERS, 'x-search-id': String(searchId) });
  });

  return app;
}
