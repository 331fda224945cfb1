import { afterAll, describe, expect, it } from 'vitest';
import { createRedis } from '../../core/redis/client';
import { freePort } from '../../dev/harness/processes';
import { createTestRedis, deletePrefix, testQueuePrefix } from '../../dev/harness/redis';
import { ServiceUnavailableError } from '../../core/unavailable';
import { askAdmission } from './ask-admission';
import { userSlots } from './user-slots';

describe('userSlots', () => {
  const prefix = testQueuePrefix();
  const redis = createTestRedis();
  afterAll(async () => {
    await deletePrefix(redis, prefix);
    redis.disconnect();
  });

  it('hands out at most `max` slots per user and takes them back', async () => {
    // Slots are taken by the ask's admission (its rate set high enough never to refuse here).
    const take = (userId: number) => askAdmission(redis, { prefix, perMinute: 100, maxSearches: 2 }).admit(userId);
    const slots = userSlots(redis, { prefix });
    const a = await take(1);
    const b = await take(1);
    expect(a.kind === 'admitted' && b.kind === 'admitted').toBe(true);
    expect((await take(1)).kind).toBe('busy');
    expect((await take(2)).kind).toBe('admitted');
    if (a.kind === 'admitted') await slots.release(1, a.token);
    expect((await take(1)).kind).toBe('admitted');
  });

  it('says Redis is unavailable (ServiceUnavailableError) instead of failing with its raw error', async () => {
    // The api's own client settings, pointed at a loopback port nobody listens on.
    const down = createRedis({ redisUrl: `redis://127.0.0.1:${await freePort()}`, redisClusterNodes: null }, 'requests');
    down.on('error', () => {}); // refused connections, expected here
    const slots = userSlots(down, { prefix });
    const err = await slots.release(1, 'token').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).service).toBe('redis');
    down.disconnect();
  });
});
