import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics. Each api and worker process keeps its own counts and serves them itself
 * (docs/decisions/scale-out-and-redis.md); Prometheus sums across processes. Callers use the small functions below,
 * never prom-client, so the metric names live in this file only.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const eventChecks = new Histogram({
  name: 'event_check_seconds',
  help: "Time to check a search's model events against their source pages (robots.txt, fetch, read, match).",
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10],
  registers: [registry],
});

const eventCheckPages = new Counter({
  name: 'event_check_pages_total',
  help: 'Source pages tried to check model events, by outcome (read, failed, robots).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const eventCheckOutcomes = new Counter({
  name: 'event_check_events_total',
  help: 'Model events checked against their source pages, by verification status.',
  labelNames: ['status'] as const,
  registers: [registry],
});

/** One search's check of its model events: its time, its pages by outcome, its events by status. */
export function observeEventCheck(seconds: number, pages: Record<'read' | 'failed' | 'robots', number>, statuses: string[]): void {
  eventChecks.observe(seconds);
  for (const [outcome, n] of Object.entries(pages)) if (n > 0) eventCheckPages.inc({ outcome }, n);
  for (const status of statuses) eventCheckOutcomes.inc({ status });
}

const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time until the response headers were ready, by method and route pattern (streams: until the stream began).',
  labelNames: ['method', 'route'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

const askFirstByte = new Histogram({
  name: 'ask_first_byte_seconds',
  help: 'POST /api/ask: time from the request to the first answer byte sent to the browser.',
  buckets: [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10],
  registers: [registry],
});

const openStreams = new Gauge({
  name: 'ask_streams_open',
  help: 'POST /api/ask answers streaming right now.',
  registers: [registry],
});

const queueJobs = new Gauge({
  name: 'queue_jobs',
  help: 'Jobs in a BullMQ queue by state, read from Redis when scraped (the same for every process).',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
  // Every process reads the same figures: summed over an api's processes they would be counted several times, so
  // the process answering the scrape adds its own fresh ones instead (api/cluster-metrics.ts).
  aggregator: 'omit',
});

const timerRuns = new Counter({
  name: 'timer_runs_total',
  help: 'Timer jobs this worker finished, by outcome (retrying: an attempt failed and will be tried again).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const readingsOverLimit = new Counter({
  name: 'website_readings_over_limit_total',
  help: 'Website readings stopped at a limit of the reading pool (time, heap, events, failed); their events were left out.',
  labelNames: ['limit'] as const,
  registers: [registry],
});

const readingsInFlight = new Gauge({
  name: 'website_readings_in_flight',
  help: 'Website readings of this process queued or running in its reading pool.',
  registers: [registry],
});

const readingsDone = new Counter({
  name: 'website_readings_total',
  help: 'Website readings this process finished in its reading pool, whatever their outcome.',
  registers: [registry],
});

/** Around each reading's time in the pool (core/reading/read-website.ts): `+1` when handed in, `-1` when back. */
export function readingInFlight(delta: 1 | -1): void {
  readingsInFlight.inc(delta);
  if (delta < 0) readingsDone.inc();
}

/** A reading the reading pool stopped (core/reading/read-website.ts). */
export function countReadingOverLimit(limit: string): void {
  readingsOverLimit.inc({ limit });
}

const deliveries = new Counter({
  name: 'deliveries_total',
  help: 'Deliveries (email, webhook) this worker finished, by channel and outcome.',
  labelNames: ['channel', 'outcome'] as const,
  registers: [registry],
});

const retentionDeleted = new Counter({
  name: 'retention_deleted_total',
  help: 'Rows the daily retention pass deleted, by kind (searches, timer_runs, timer_events).',
  labelNames: ['kind'] as const,
  registers: [registry],
});

const retentionLastRun = new Gauge({
  name: 'retention_last_run_timestamp_seconds',
  help: 'When this worker last finished the daily retention pass (Unix time).',
  registers: [registry],
});

const reconcilePasses = new Histogram({
  name: 'reconcile_pass_seconds',
  help: 'Reconcile passes this worker ran (those it claimed for the fleet, at its start or periodically), by duration.',
  buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  registers: [registry],
});

const reconcileFixes = new Counter({
  name: 'reconcile_fixes_total',
  help: 'Job schedulers a reconcile pass of this worker fixed: armed (missing, changed or stopped) or removed (no active timer).',
  labelNames: ['fix'] as const,
  registers: [registry],
});

const geminiCalls = new Counter({
  name: 'gemini_calls_total',
  help: 'Gemini calls that answered, by the model that answered and what for (ask, timer_run, extraction)',
  labelNames: ['model', 'kind'] as const,
  registers: [registry],
});

const geminiTokens = new Counter({
  name: 'gemini_tokens_total',
  help: 'Tokens Gemini billed, by model, kind and type (prompt, output, thinking)',
  labelNames: ['model', 'kind', 'type'] as const,
  registers: [registry],
});

const geminiSearchQueries = new Counter({
  name: 'gemini_grounding_queries_total',
  help: 'Google Search queries the model ran for grounding (Gemini 3 bills each one)',
  labelNames: ['model', 'kind'] as const,
  registers: [registry],
});

const geminiCost = new Counter({
  name: 'gemini_cost_usd_total',
  help: 'Estimated USD of Gemini calls at the configured prices (GEMINI_PRICES over Google published prices)',
  labelNames: ['model', 'kind'] as const,
  registers: [registry],
});

const monthSpend = new Gauge({
  name: 'gemini_month_spend_usd',
  help: "This month's estimated Gemini spend across the deployment, as a worker last read it",
  registers: [registry],
});

const spendGuardEngaged = new Gauge({
  name: 'gemini_spend_guard_engaged',
  help: '1 while timer runs are skipped because the month reached GEMINI_MONTHLY_BUDGET_USD',
  registers: [registry],
});

/** What the spend guard last read (core/gemini/spend-guard.ts). */
export function setMonthSpend(usd: number, engaged: boolean): void {
  monthSpend.set(usd);
  spendGuardEngaged.set(engaged ? 1 : 0);
}

export type GeminiCallKind = 'ask' | 'timer_run' | 'extraction' | 'describe';

/** Counts what Gemini calls used and their estimated cost. */
export function countGeminiUsage(
  kind: GeminiCallKind,
  model: string,
  usage: { calls: number; promptTokens: number; outputTokens: number; thinkingTokens: number; groundingQueries: number },
  costUsd: number,
): void {
  geminiCalls.inc({ model, kind }, usage.calls);
  geminiTokens.inc({ model, kind, type: 'prompt' }, usage.promptTokens);
  geminiTokens.inc({ model, kind, type: 'output' }, usage.outputTokens);
  geminiTokens.inc({ model, kind, type: 'thinking' }, usage.thinkingTokens);
  geminiSearchQueries.inc({ model, kind }, usage.groundingQueries);
  geminiCost.inc({ model, kind }, costUsd);
}

export function countRequest(method: string, route: string, status: number, seconds: number): void {
  httpRequests.inc({ method, route, status: String(status) });
  httpDuration.observe({ method, route }, seconds);
}

/** The ask route calls this when the first answer byte goes out; `seconds` since the request arrived. */
export function observeAskFirstByte(seconds: number): void {
  askFirstByte.observe(seconds);
}

/** The ask route calls streamOpened when its stream starts and streamClosed once when it ends in any way. */
export function streamOpened(): void {
  openStreams.inc();
}

export function streamClosed(): void {
  openStreams.dec();
}

/** Job states a queue is reported in. */
export const QUEUE_STATES = ['waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed'] as const;

export function setQueueDepth(queue: string, counts: Partial<Record<string, number>>): void {
  for (const state of QUEUE_STATES) queueJobs.set({ queue, state }, counts[state] ?? 0);
}

export type TimerRunOutcome = 'succeeded' | 'skipped' | 'already-done' | 'timer-gone' | 'paused' | 'failed' | 'retrying';

export function countTimerRun(outcome: TimerRunOutcome): void {
  timerRuns.inc({ outcome });
}

/** For the deliveries worker: e.g. countDelivery('email', 'sent' | 'failed' | 'retrying'). */
export function countDelivery(channel: string, outcome: string): void {
  deliveries.inc({ channel, outcome });
}

/** After a retention pass: what it deleted, and when it finished. */
export function observeRetention(deleted: { searches: number; timerRuns: number; timerEvents: number }): void {
  retentionDeleted.inc({ kind: 'searches' }, deleted.searches);
  retentionDeleted.inc({ kind: 'timer_runs' }, deleted.timerRuns);
  retentionDeleted.inc({ kind: 'timer_events' }, deleted.timerEvents);
  retentionLastRun.set(Date.now() / 1000);
}

/** The timers worker calls this after each reconcile pass: how long it took and what it fixed. */
export function observeReconcilePass(seconds: number, fixed: { upserted: number; removed: number }): void {
  reconcilePasses.observe(seconds);
  reconcileFixes.inc({ fix: 'armed' }, fixed.upserted);
  reconcileFixes.inc({ fix: 'removed' }, fixed.removed);
}

/** The text exposition format and its content type, as Prometheus scrapes it. */
export async function metricsText(): Promise<{ body: string; contentType: string }> {
  return { body: await registry.metrics(), contentType: registry.contentType };
}

/** The queue depths alone, as this process last read them from Redis (the text several processes' figures end with). */
export function queueDepthText(): Promise<string> {
  return registry.getSingleMetricAsString('queue_jobs');
}

const redisOutages = new Counter({
  name: 'redis_outages_total',
  help: 'Times a Redis connection stopped answering its health check (closed, refused or hanging), by connection.',
  labelNames: ['connection'] as const,
  registers: [registry],
});

const redisUp = new Gauge({
  name: 'redis_up',
  help: 'Whether a Redis connection answered its last health check (1) or not (0), by connection.',
  labelNames: ['connection'] as const,
  registers: [registry],
  aggregator: 'min',
});

/** A Redis connection's health check: it answers (`true`) or stopped answering (`false`, an outage counted). */
export function noteRedisHealth(connection: string, answering: boolean): void {
  redisUp.set({ connection }, answering ? 1 : 0);
  if (!answering) redisOutages.inc({ connection });
}
