import { randomBytes } from 'node:crypto';
import { Cluster, Redis } from 'ioredis';
import { loadConfig } from '../../core/config';
import type { RedisClient } from '../../core/redis/client';

/** A BullMQ prefix of this test's own; the hash tag keeps it Redis-Cluster-safe like production's. */
export function testQueuePrefix(): string {
  return `{test-${randomBytes(5).toString('hex')}}`;
}

export function testRedisUrl(): string {
  return loadConfig(process.env).redisUrl;
}

/** Deletes every key under the prefix, so a test file leaves nothing behind (on each master of a Cluster). */
export async function deletePrefix(redis: RedisClient, prefix: string): Promise<void> {
  if (redis instanceof Cluster) {
    await Promise.all(redis.nodes('master').map((node) => deletePrefix(node, prefix)));
    return;
  }
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
}

export function createTestRedis(): Redis {
  return new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
}
