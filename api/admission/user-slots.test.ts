import { afterAll, describe, expect, it } from 'vitest';
import { createRedis } from '../../core/redis/client';
import { freePort } from '../../dev/harness/processes';
import { createTestRedis, deletePrefix, testQueuePrefix } from '../../dev/harness/redis';
import { ServiceUnavailableError } from '../../core/unavailable';
import { outOfCreditMarks } from './out-of-credit';
import { slotKey, userSlots } from './user-slots';

describe('userSlots', () => {
  const prefix = testQueuePrefix();
  const redis = createTestRedis();
  afterAll(async () => {
    await deletePrefix(redis, prefix);
    redis.disconnect();
  });

  it('hands out at most `max` slots per user, takes none when busy, and takes them back', async () => {
    const slots = userSlots(redis, { prefix, max: 2 });
    const a = await slots.take(1);
    const b = await slots.take(1);
    expect(a.kind).toBe('taken');
    expect(b.kind).toBe('taken');
    expect(await slots.take(1)).toEqual({ kind: 'busy' });
    expect(await redis.zcard(slotKey(prefix, 1))).toBe(2);
    expect((await slots.take(2)).kind).toBe('taken');
    if (a.kind === 'taken') await slots.release(1, a.token);
    expect((await slots.take(1)).kind).toBe('taken');
  });

  it('drops a slot whose holder died (its expiry passed) before counting', async () => {
    const slots = userSlots(redis, { prefix, max: 1 });
    await redis.zadd(slotKey(prefix, 3), Date.now() - 1, 'a process that died');
    expect((await slots.take(3)).kind).toBe('taken');
    expect(await redis.zrange(slotKey(prefix, 3), 0, -1)).not.toContain('a process that died');
  });

  it("reads the user's out-of-credit mark with the slot", async () => {
    const slots = userSlots(redis, { prefix, max: 5 });
    const marks = outOfCreditMarks(redis, prefix);
    expect(await slots.take(4)).toMatchObject({ kind: 'taken', creditLikely: true });
    await marks.mark(4);
    expect(await slots.take(4)).toMatchObject({ kind: 'taken', creditLikely: false });
    await marks.clear(4);
    expect(await slots.take(4)).toMatchObject({ kind: 'taken', creditLikely: true });
  });

  it('says Redis is unavailable (ServiceUnavailableError) instead of failing with its raw error', async () => {
    // The api's own client settings, pointed at a loopback port nobody listens on.
    const down = createRedis({ redisUrl: `redis://127.0.0.1:${await freePort()}`, redisClusterNodes: null }, 'requests');
    down.on('error', () => {}); // refused connections, expected here
    const slots = userSlots(down, { prefix, max: 2 });
    for (const err of [await slots.take(1).catch((e: unknown) => e), await slots.release(1, 'token').catch((e: unknown) => e)]) {
      expect(err).toBeInstanceOf(ServiceUnavailableError);
      expect((err as ServiceUnavailableError).service).toBe('redis');
    }
    down.disconnect();
  });
});
