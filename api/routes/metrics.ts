import { Hono } from 'hono';
import { basicAuth } from 'hono/basic-auth';
import { QUEUE_STATES, setQueueDepth } from '../../core/metrics';
import { apiMetricsText } from '../cluster-metrics';
import { withRedisDeadline } from '../../core/timers/scheduler';
import type { AppDeps, AppEnv } from '../deps';

export const METRICS_PATH = '/metrics';

/**
 * Prometheus metrics of the api (all its processes when API_PROCESSES runs several on one port), behind the operators' basic auth (ADMIN_USER/ADMIN_PASSWORD, like
 * Bull Board); without those nothing is mounted and the path answers 404. Queue depths are read from Redis on
 * each scrape, so every api process reports the same, current figures.
 */
export function metricsRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const admin = deps.config.admin;
  if (!admin) return app;
  // Add each queue whose depth operators should see (the deliveries queue once it exists).
  const queues = [deps.timersQueue];

  app.use(METRICS_PATH, basicAuth({ username: admin.user, password: admin.password, realm: 'Event Finder operators' }));
  app.get(METRICS_PATH, async (c) => {
    await Promise.all(
      queues.map(async (queue) => {
        try {
          setQueueDepth(queue.name, await withRedisDeadline(() => queue.getJobCounts(...QUEUE_STATES)));
        } catch (err) {
          // The other figures are still worth scraping while Redis is away; the depths keep their last values.
          c.get('log').warn({ err: (err as Error).message, queue: queue.name }, 'queue depth unavailable');
        }
      }),
    );
    const { body, contentType } = await apiMetricsText();
    return c.body(body, 200, { 'content-type': contentType, 'cache-control': 'no-store' });
  });
  return app;
}
