import { Hono, type Context } from 'hono';
import { planOf } from '../../core/plans';
import { answerSearch, prepareSearch, SearchError, type SearchDeps } from '../../core/search';
import { userSlots } from '../../core/search/user-slots';
import { refundCredit, takeCredit } from '../../db/accounts';
import { finishSearchRecord, startSearchRecord } from '../../db/searches';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { requireUser } from '../middleware/session';
import { parseAskInput } from './ask-input';

const STREAM_HEADERS = {
  'content-type': 'text/plain; charset=utf-8',
  // Proxies such as nginx must pass each chunk on at once instead of buffering the answer.
  'x-accel-buffering': 'no',
  'cache-control': 'no-store',
};

const textError = (err: SearchError) => new ApiError(err.status, err.message, { format: 'text' });

/**
 * POST /api/ask {ques, web, timezone?}: reads the website (no credit for a refused or failed one), takes one
 * credit, then streams Gemini's answer as plain text. The reply's status waits for the first text, so a
 * Gemini failure before any text is a proper error reply (and the credit is given back).
 */
export function askRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const slots = userSlots(deps.redis, { prefix: deps.config.queuePrefix, max: deps.config.search.concurrencyPerUser });
  const search: SearchDeps = { gemini: deps.gemini, config: deps.config };
  const { sql } = deps;

  app.post('/api/ask', async (c) => {
    const user = requireUser(c, 'text');
    const body = await c.req.json().catch(() => {
      throw new ApiError(400, 'The request body is not valid JSON. Please reload the page and try again.', { format: 'text' });
    });
    const input = parseAskInput(body);
    const slot = await slots.acquire(user.id);
    if (!slot) {
      const max = deps.config.search.concurrencyPerUser;
      throw new ApiError(429, `You already have ${max} searches running. Please wait for one to finish, then try again.`, {
        format: 'text',
        headers: { 'retry-after': '5' },
      });
    }
    let handedOver = false;
    try {
      const response = await startAnswer(c, user.id, input, () => (handedOver = true));
      return response;
    } finally {
      if (!handedOver) await slots.release(user.id, slot);
    }

    /** Everything up to the first text; after that the stream owns the slot (see `handOver`). */
    async function startAnswer(ctx: Context<AppEnv>, userId: number, req: typeof input, handOver: () => void) {
      const abort = new AbortController();
      ctx.req.raw.signal.addEventListener('abort', () => abort.abort(), { once: true });
      const log = ctx.get('log');
      const record = { userId, question: req.ques, website: req.web, model: deps.config.gemini.model };

      let prepared;
      try {
        prepared = await prepareSearch(search, { question: req.ques, website: req.web, timezone: req.timezone }, abort.signal);
      } catch (err) {
        const e =
          err instanceof SearchError
            ? err
            : new SearchError('website_failed', 'We could not read the website. Please try again.', 502, false);
        const id = await startSearchRecord(sql, record);
        await finishSearchRecord(sql, id, { status: e.code === 'website_refused' ? 'refused' : 'failed', error: e.message });
        throw textError(e);
      }

      // Two independent writes, sent together: the user waits for one round trip to Postgres, not two.
      const [recorded, charged] = await Promise.allSettled([startSearchRecord(sql, record), takeCredit(sql, userId)]);
      if (recorded.status === 'rejected') {
        if (charged.status === 'fulfilled' && charged.value.ok) await refundCredit(sql, userId, charged.value.billing.usageEpoch);
        throw recorded.reason;
      }
      const recordId = recorded.value;
      if (charged.status === 'rejected') {
        await finishSearchRecord(sql, recordId, { status: 'failed', error: 'Could not take a credit.' });
        throw charged.reason;
      }
      const credit = charged.value;
      if (!credit.ok) {
        const { allowance, tier } = credit.billing;
        const message = `You have used all ${allowance} searches of your ${planOf(tier).name.toLowerCase()} plan this month.`;
        await finishSearchRecord(sql, recordId, { status: 'refused', error: message });
        throw new ApiError(402, message, { format: 'text' });
      }

      const encoder = new TextEncoder();
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({
        start: (ctl) => {
          controller = ctl;
        },
        // The browser went away (or the proxy closed): stop paying for an answer nobody reads.
        cancel: () => abort.abort(),
      });
      let chars = 0;
      let firstChunkAt: Date | null = null;
      let resolveFirst!: () => void;
      const firstText = new Promise<void>((resolve) => (resolveFirst = resolve));
      const onText = (text: string) => {
        if (chars === 0) {
          resolveFirst();
          firstChunkAt = new Date();
        }
        chars += text.length;
        if (!abort.signal.aborted) controller.enqueue(encoder.encode(text));
      };

      const answering = answerSearch(search, prepared, onText, abort.signal);
      const started = await Promise.race([
        firstText.then(() => true),
        answering.then(
          () => true,
          () => false,
        ),
      ]);
      if (!started || chars === 0) {
        // Failed before any text: an ordinary error reply, and the credit goes back.
        const err = await answering.then(
          () => new SearchError('empty', 'The AI service returned an empty answer. Please try again.', 502, true),
          (e: unknown) =>
            e instanceof SearchError ? e : new SearchError('upstream_failed', 'The AI service failed. Please try again.', 502, true),
        );
        await refundCredit(sql, userId, credit.billing.usageEpoch);
        await finishSearchRecord(sql, recordId, { status: 'failed', error: err.message });
        throw textError(err);
      }

      handOver();
      answering
        .then(
          async (result) => {
            try {
              await finishSearchRecord(sql, recordId, {
                status: 'answered',
                answerChars: result.answer.length,
                promptTokens: result.promptTokens,
                outputTokens: result.outputTokens,
                firstChunkAt,
              });
            } finally {
              // The whole answer is out: a failed bookkeeping write must not leave the reply open forever.
              if (!abort.signal.aborted) controller.close();
            }
          },
          async (err: unknown) => {
            const message = err instanceof SearchError ? err.message : 'The AI service failed.';
            if (!abort.signal.aborted) {
              controller.enqueue(encoder.encode(`\n\n[The answer is incomplete: ${message}]\n`));
              controller.close();
            }
            // Text was already delivered, so the credit stays taken.
            await finishSearchRecord(sql, recordId, {
              status: 'failed',
              error: abort.signal.aborted ? 'The client went away before the answer was complete.' : message,
              answerChars: chars,
              firstChunkAt,
            });
          },
        )
        .catch((err) => log?.error({ err }, 'could not finish search record'))
        .finally(() => slots.release(userId, slot!).catch((err) => log?.warn({ err }, 'could not release search slot')));
      return ctx.body(body, 200, STREAM_HEADERS);
    }
  });

  return app;
}
