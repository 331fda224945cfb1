import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { Config } from '../config';

/** A single Redis server or a Redis Cluster: every caller uses the commands both speak. */
export type RedisClient = Redis | Cluster;

/**
 * `queue`: BullMQ queues and workers, which block on Redis and must wait through an outage rather than fail a
 * command (BullMQ refuses any other maxRetriesPerRequest). `requests`: the api's rate limits and search slots,
 * where a request must fail fast with a 503 instead of hanging while Redis is away.
 */
export type RedisRole = 'queue' | 'requests';

function roleOptions(role: RedisRole): RedisOptions {
  return role === 'queue' ? { maxRetriesPerRequest: null } : { maxRetriesPerRequest: 2 };
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
