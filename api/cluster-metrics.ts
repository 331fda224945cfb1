import cluster from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import { metricsText, queueDepthText, registry } from '../core/metrics';

const REQUEST = 'eventfinder:metrics';
const REPLY = 'eventfinder:metrics-reply';
const REPLY_TIMEOUT_MS = 6_000;

interface MetricsReply {
  type: typeof REPLY;
  id: number;
  text?: string;
  error?: string;
}

/**
 * The primary of an api's processes (api/processes.ts): asked by the process a scrape reached, it gathers every
 * process's figures (prom-client's cluster aggregation: counters and histograms summed) and sends them back, so a
 * scrape of the one port sees the whole api, as it did when the api was one process.
 */
export function answerMetricsRequests(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== REQUEST || message.id === undefined) return;
    const id = message.id;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: REPLY, id, text } satisfies MetricsReply),
      (err: Error) => worker.send({ type: REPLY, id, error: err.message } satisfies MetricsReply),
    );
  });
}

let nextId = 0;
const pending = new Map<number, (reply: MetricsReply) => void>();

/**
 * One of an api's processes: answers its primary's requests for this process's figures, and routes the replies to
 * its own scrapes. Called at the process's start, so no process leaves an aggregation waiting.
 */
export function shareMetricsWithPrimary(): void {
  AggregatorRegistry.setRegistries([registry]);
  // Constructed for its side effect: the listener that answers the primary's requests for this process's figures.
  new AggregatorRegistry();
  process.on('message', (message: MetricsReply) => {
    if (message?.type === REPLY) pending.get(message.id)?.(message);
  });
}

/** The Prometheus text for a scrape of the api: all its processes' figures when it runs as several, else its own. */
export async function apiMetricsText(): Promise<{ body: string; contentType: string }> {
  if (!cluster.isWorker || !process.send) return metricsText();
  const id = ++nextId;
  const reply = await new Promise<MetricsReply>((resolve) => {
    const timer = setTimeout(() => resolve({ type: REPLY, id, error: 'the other api processes did not answer in time' }), REPLY_TIMEOUT_MS);
    pending.set(id, (r) => {
      clearTimeout(timer);
      resolve(r);
    });
    process.send?.({ type: REQUEST, id });
  });
  pending.delete(id);
  if (reply.error !== undefined || reply.text === undefined) throw new Error(`metrics of the api's processes: ${reply.error}`);
  return { body: `${reply.text}\n${await queueDepthText()}\n`, contentType: registry.contentType };
}
