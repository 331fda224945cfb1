import { Redis } from 'ioredis';
import { startRedisServer } from '../../dev/harness/redis-server';

export interface PrivateRedis {
  redis: Redis;
  stop: () => Promise<void>;
}

/**
 * A throwaway `redis-server` of the benchmark's own (dev/harness/redis-server.ts), started with `args` (e.g. the
 * settings docs/operations.md recommends), so a setting can be measured without touching the shared Redis, and a
 * client of it.
 */
export async function startPrivateRedis(args: string[]): Promise<PrivateRedis> {
  const server = await startRedisServer(args);
  const redis = new Redis(server.url, { maxRetriesPerRequest: null });
  redis.on('error', () => {});
  return {
    redis,
    stop: async () => {
      redis.disconnect();
      await server.stop();
    },
  };
}
