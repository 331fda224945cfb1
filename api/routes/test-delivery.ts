import { Hono } from 'hono';
import { createFactory } from 'hono/factory';
import { testDeliveryRequestSchema } from '../../core/contract/test-delivery';
import { previewTimerMessages, sendTestDelivery } from '../../core/delivery/test-delivery';
import { TEST_SENDS } from '../../core/delivery/test-message';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { requireUser, signedIn } from '../middleware/session';
import { ownUserRate } from '../middleware/user-rate-limit';
import { routeId } from '../route-id';
import { jsonBody } from '../validate';
import { seesTimerSecrets } from './timers';

const NOT_FOUND = 'There is no such timer among yours. Reload Manage Timers to see your timers.';

const factory = createFactory<AppEnv>();

/**
 * The timer page's preview and "Send a test" (GET /api/timers/:id/preview, POST /api/timers/:id/test-delivery;
 * the same handlers behind /v1, api/routes/v1/timers.ts). A test is sent by this request and awaited, so the
 * reply says how it went (docs/decisions/delivery.md).
 */
export function testDeliveryHandlers(deps: AppDeps) {
  const destinationDeps = {
    sql: deps.sql,
    appUrl: deps.config.appUrl,
    mailer: deps.mailer,
    webhook: { allow: deps.config.webhookAllow, resolve: deps.resolve },
  };
  // Counted in Redis across every api process, the page, /v1 and MCP together.
  const testRate = ownUserRate(deps.redis, {
    prefix: deps.config.queuePrefix,
    name: 'test-delivery-rate',
    points: TEST_SENDS.points,
    seconds: TEST_SENDS.seconds,
    refusal: (ms) => {
      const minutes = Math.max(1, Math.ceil(ms / 60_000));
      return new ApiError(
        429,
        `You have sent ${TEST_SENDS.points} tests in the last ${TEST_SENDS.seconds / 60} minutes. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} before sending another; the timer’s own messages go out as usual.`,
        { headers: { 'Retry-After': String(Math.ceil(ms / 1000)) } },
      );
    },
  });
  return {
    preview: factory.createHandlers(async (c) => {
      const user = requireUser(c);
      const id = routeId(c.req.param('id'));
      // Addresses are secrets: a read-only token sees the messages without them.
      const secrets = seesTimerSecrets(c.get('tokenScopes'));
      const reply = id === null ? null : await previewTimerMessages(destinationDeps, user.id, id, { secrets });
      if (!reply) throw new ApiError(404, NOT_FOUND);
      return c.json(reply);
    }),
    test: factory.createHandlers(testRate, jsonBody(testDeliveryRequestSchema), async (c) => {
      const user = requireUser(c);
      const id = routeId(c.req.param('id'));
      if (id === null) throw new ApiError(404, NOT_FOUND);
      const { destination } = c.req.valid('json');
      const outcome = await sendTestDelivery({ ...destinationDeps, logger: c.get('log') }, user.id, id, destination);
      if (outcome.kind === 'not_found') throw new ApiError(404, NOT_FOUND);
      if (outcome.kind === 'unavailable') throw new ApiError(400, outcome.message);
      return c.json(outcome.reply);
    }),
  };
}

/** The page's routes. */
export function testDeliveryRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const handlers = testDeliveryHandlers(deps);
  app.get('/api/timers/:id/preview', signedIn, ...handlers.preview);
  app.post('/api/timers/:id/test-delivery', signedIn, ...handlers.test);
  return app;
}
