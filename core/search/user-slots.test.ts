import { afterAll, describe, expect, it } from 'vitest';
import { createRedis } from '../redis';
import { freePort } from '../../test/support/processes';
import { createTestRedis, deletePrefix, testQueuePrefix } from '../../test/support/redis';
import { ServiceUnavailableError } from '../unavailable';
import { userSlots } from './user-slots';

describe('userSlots', () => {
  const prefix = testQueuePrefix();
  const redis = createTestRedis();
  afterAll(async () => {
    await deletePrefix(redis, prefix);
    redis.disconnect();
  });

  it('hands out at most `max` slots per user and takes them back', async () => {
    const slots = userSlots(redis, { prefix, max: 2 });
    const a = await slots.acquire(1);
    const b = await slots.acquire(1);
    expect(a && b).toBeTruthy();
    expect(await slots.acquire(1)).toBeNull();
    expect(await slots.acquire(2)).toBeTruthy();
    await slots.release(1, a!);
    expect(await slots.acquire(1)).toBeTruthy();
  });

  it('says Redis is unavailable (ServiceUnavailableError) instead of failing with its raw error', async () => {
    // The api's own client settings, pointed at a loopback port nobody listens on.
    const down = createRedis({ redisUrl: `redis://127.0.0.1:${await freePort()}`, redisClusterNodes: null }, 'requests');
    down.on('error', () => {}); // refused connections, expected here
    const slots = userSlots(down, { prefix, max: 2 });
    const err = await slots.acquire(1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).service).toBe('redis');
    await expect(slots.release(1, 'token')).rejects.toBeInstanceOf(ServiceUnavailableError);
    down.disconnect();
  });
});
