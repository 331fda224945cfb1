import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { Config } from '../config';

/** A single Redis server or a Redis Cluster: every caller uses the commands both speak. */
export type RedisClient = Redis | Cluster;

/** A command of a request's connection that gets no reply in this long fails: a Redis that hangs ends in a 503. */
export const REDIS_COMMAND_TIMEOUT_MS = 2_000;
/** A connection not made in this long is given up and tried again. */
const CONNECT_TIMEOUT_MS = 5_000;
/** TCP keep-alive probes on an idle connection, so a peer that vanished (or a middlebox that dropped it) shows. */
const KEEP_ALIVE_MS = 10_000;

/**
 * `queue`: BullMQ's connections, which must wait through an outage rather than fail a command: BullMQ workers
 * refuse any maxRetriesPerRequest but null, and their blocking reads (bounded by BullMQ's own timeout argument)
 * would be cut by a command timeout, so they have none; the api's calls through its queues carry their own
 * deadline (core/timers/scheduler.ts). `requests`: the api's rate limits, search slots and revocation
 * announcements, where a request must fail fast with a 503 instead of hanging while Redis is away or hangs.
 * Whether either kind is answering is what core/redis/health.ts watches.
 */
export type RedisRole = 'queue' | 'requests';

function roleOptions(role: RedisRole): RedisOptions {
  const shared: RedisOptions = { connectTimeout: CONNECT_TIMEOUT_MS, keepAlive: KEEP_ALIVE_MS };
  return role === 'queue'
    ? { ...shared, maxRetriesPerRequest: null }
    : { ...shared, maxRetriesPerRequest: 2, commandTimeout: REDIS_COMMAND_TIMEOUT_MS };
}

/**
 * The one place a Redis connection is made. With REDIS_CLUSTER_NODES set it is an ioredis Cluster seeded by
 * those nodes; REDIS_URL then still supplies the credentials and TLS (rediss:) every node is reached with.
 * Keys stay Cluster-safe because each multi-key operation uses keys under one `{hash tag}` (QUEUE_PREFIX).
 */
export function createRedis(config: Pick<Config, 'redisUrl' | 'redisClusterNodes'>, role: RedisRole): RedisClient {
  const offlineQueue = role === 'queue';
  if (!config.redisClusterNodes) {
    return new Redis(config.redisUrl, { ...roleOptions(role), enableOfflineQueue: offlineQueue });
  }
  const url = new URL(config.redisUrl);
  return new Cluster(config.redisClusterNodes, {
    enableOfflineQueue: offlineQueue,
    redisOptions: {
      ...roleOptions(role),
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
    },
  });
}
