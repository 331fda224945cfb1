import { Redis } from 'ioredis';
import type { Logger } from '../core/logger';

/**
 * The api's Redis connection for rate limits and per-user slots. Without an offline queue a command fails at
 * once while Redis is away (the request answers 503) instead of waiting in memory for a reconnect; two retries
 * ride out a failover.
 */
export function createApiRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: false, lazyConnect: false });
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
  return redis;
}
