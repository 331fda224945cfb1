import { Hono } from 'hono';
import { createFactory } from 'hono/factory';
import { type DescribeReply, describeRequestSchema } from '../../core/contract/describe';
import { knownTimeZone } from '../../core/time/time-zone';
import { deadline } from '../../core/gemini/deadline';
import { priceCall } from '../../core/gemini/priced-call';
import type { GeminiUsage } from '../../core/gemini/usage';
import { addOtherGeminiCost } from '../../db/gemini-costs';
import { describeTimer } from '../../core/timers/describe/describe-timer';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { requireUser, signedIn } from '../middleware/session';
import { ownUserRate } from '../middleware/user-rate-limit';
import { jsonBody } from '../validate';
import { checkTimerWebsite } from './timer-website';

const UNAVAILABLE =
  'We could not read that sentence right now (the AI service did not answer). Fill in the form below yourself, or try again.';
const TOO_SLOW =
  'We could not read that sentence in time (the AI service took too long to answer). Fill in the form below yourself, or try again.';

/**
 * POST /api/timers/describe {sentence, timezone}: the timer a sentence describes, for the page to show in
 * the ordinary form; nothing is saved. 400 with a sentence when it asks for what no timer does.
 */
export function describeRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.post('/api/timers/describe', signedIn, ...describeTimerHandlers(deps));
  return app;
}

const factory = createFactory<AppEnv>();

/** The handlers behind the page's route and /v1's (api/routes/v1/timers.ts). */
export function describeTimerHandlers(deps: AppDeps) {
  // Describing is free to the user but not to us: its own hourly rate, besides the per-minute one.
  const perHour = deps.config.describePerHour;
  const describeRate = ownUserRate(deps.redis, {
    prefix: deps.config.queuePrefix,
    name: 'describe-rate',
    points: perHour,
    seconds: 3600,
    refusal: (ms) => {
      const minutes = Math.max(1, Math.ceil(ms / 60_000));
      return new ApiError(
        429,
        `You have described ${perHour} timers in words this hour. Fill in the form below yourself, or try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        { headers: { 'Retry-After': String(Math.ceil(ms / 1000)) } },
      );
    },
  });
  return factory.createHandlers(describeRate, jsonBody(describeRequestSchema), async (c) => {
    requireUser(c);
    const { sentence, timezone } = c.req.valid('json');
    const zone = knownTimeZone(timezone);
    const settings = { model: deps.config.gemini.model, thinking: deps.config.gemini.thinking };
    // A sentence the model reads is a Gemini call like any other: counted and priced in the metrics, and its cost
    // added to the month's spend that the budget guard reads.
    let spentUsd = 0;
    const onUsage = (usage: GeminiUsage, model: string) => {
      spentUsd = priceCall(deps.config.gemini.prices, 'describe', model, usage);
    };
    // The reply is one piece: it gets the time an ask waits for its first, and a stalled model ends with a sentence.
    const limit = deadline(c.req.raw.signal, deps.config.search.answerIdleMs);
    let outcome: Awaited<ReturnType<typeof describeTimer>>;
    try {
      outcome = await describeTimer(
        { gemini: deps.gemini, settings, onUsage },
        { sentence, timezone: zone, now: new Date(), signal: limit.signal },
      );
    } catch (err) {
      const late = (limit.signal.reason as Error | undefined)?.name === 'TimeoutError';
      c.get('log').warn({ err: (err as Error).message, late }, 'describe a timer: the model call failed');
      throw new ApiError(503, late ? TOO_SLOW : UNAVAILABLE, { code: 'gemini_unavailable' });
    } finally {
      limit.clear();
      // Paid for even when its reply was of no use.
      if (spentUsd > 0) {
        await addOtherGeminiCost(deps.sql, new Date(), spentUsd).catch((err: Error) =>
          c.get('log').warn({ err: err.message, usd: spentUsd }, 'describe a timer: its cost was not added to the month'),
        );
      }
    }
    if (outcome.kind === 'refused') throw new ApiError(400, outcome.message);
    await checkTimerWebsite(deps, outcome.reply.timer.web);
    c.get('log').info({ source: outcome.reply.source }, 'timer described');
    return c.json(outcome.reply satisfies DescribeReply);
  });
}
