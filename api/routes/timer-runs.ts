import { Hono } from 'hono';
import { createFactory } from 'hono/factory';
import type { TimerRunReply } from '../../core/contract/event-replies';
import { answerCorrections, markedAnswer } from '../../core/events/answer-corrections';
import { runTimerNow } from '../../core/timers/run-now';
import { SchedulerUnavailableError } from '../../core/timers/scheduler';
import { timerRunHistory } from '../../db/events';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { requireUser } from '../middleware/session';
import { routeId } from '../route-id';

const notFound = () => new ApiError(404, 'Timer not found');

const factory = createFactory<AppEnv>();

/** A timer's runs, newest first, with their events (GET /api/timers/:id/runs, GET /v1/timers/:id/runs). */
export const timerRunsHandlers = (deps: AppDeps) =>
  factory.createHandlers(async (c) => {
    const user = requireUser(c);
    const id = routeId(c.req.param('id'));
    const runs = id === null ? null : await timerRunHistory(deps.sql, user.id, id);
    if (!runs) throw notFound();
    // The suggestions page sits under the prefix asked (/api or /v1), as a search's does.
    const prefix = c.req.path.startsWith('/v1/') ? '/v1' : '/api';
    return c.json(
      runs.map(({ suggestions_search_id: searchId, ...run }): TimerRunReply => {
        // The stored answer stays as Gemini wrote it; its contradicted dates are marked from the run's checked events.
        const corrections = run.answer === null ? [] : answerCorrections(run.answer, [...run.events, ...run.hidden_events]);
        return {
          ...run,
          answer_corrections: corrections,
          marked_answer: run.answer === null ? null : markedAnswer(run.answer, corrections),
          search_suggestions_url: searchId === null ? null : `${prefix}/searches/${searchId}/suggestions`,
        };
      }),
    );
  });

/** Run now, the same path as a scheduled fire (POST /api/timers/:id/run, POST /v1/timers/:id/run). */
export const runNowHandlers = (deps: AppDeps) =>
  factory.createHandlers(async (c) => {
    const user = requireUser(c);
    const id = routeId(c.req.param('id'));
    if (id === null) throw notFound();
    let result: Awaited<ReturnType<typeof runTimerNow>>;
    try {
      result = await runTimerNow(deps, user.id, id);
    } catch (err) {
      if (err instanceof SchedulerUnavailableError) {
        c.get('log').warn({ err: err.message, timerId: id }, 'run now not queued: redis unavailable');
        throw new ApiError(503, 'The timer service is unavailable right now (its queue cannot be reached). Please try again in a minute.');
      }
      throw err;
    }
    if (result.kind === 'not_found') throw notFound();
    if (result.kind === 'no_credits') throw new ApiError(402, `${result.message} Upgrade your plan to run this timer now.`);
    if (result.kind === 'busy') throw new ApiError(409, 'This timer is already running. Wait for the run to finish, then try again.');
    c.get('log').info({ timerId: id, runId: result.runId }, 'timer run queued by hand');
    return c.json({ run_id: result.runId }, 202);
  });

/** A timer's run history with its events, and "Run now" (docs/contract.md). */
export function timerRunRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get('/api/timers/:id/runs', ...timerRunsHandlers(deps));
  app.post('/api/timers/:id/run', ...runNowHandlers(deps));
  return app;
}
