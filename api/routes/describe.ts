import { Hono } from 'hono';
import { createFactory } from 'hono/factory';
import { type DescribeReply, describeRequestSchema } from '../../core/contract/describe';
import { knownTimeZone } from '../../core/time/time-zone';
import { priceCall } from '../../core/gemini/priced-call';
import type { GeminiUsage } from '../../core/gemini/usage';
import { addOtherGeminiCost } from '../../db/gemini-costs';
import { describeTimer } from '../../core/timers/describe/describe-timer';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { requireUser, signedIn } from '../middleware/session';
import { jsonBody } from '../validate';
import { checkTimerWebsite } from './timer-website';

const UNAVAILABLE =
  'We could not read that sentence right now (the AI service did not answer). Fill in the form below yourself, or try again.';

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
  return factory.createHandlers(jsonBody(describeRequestSchema), async (c) => {
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
    let outcome: Awaited<ReturnType<typeof describeTimer>>;
    try {
      outcome = await describeTimer(
        { gemini: deps.gemini, settings, onUsage },
        { sentence, timezone: zone, now: new Date(), signal: c.req.raw.signal },
      );
    } catch (err) {
      c.get('log').warn({ err: (err as Error).message }, 'describe a timer: the model call failed');
      throw new ApiError(503, UNAVAILABLE);
    } finally {
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
