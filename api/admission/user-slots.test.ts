import { afterAll, describe, expect, it, vi } from 'vitest';
import { createRedis } from '../../core/redis/client';
import { redisScript } from '../../core/redis/script';
import { freePort } from '../../dev/harness/processes';
import { createTestRedis, deletePrefix, testQueuePrefix } from '../../dev/harness/redis';
import { startRedisServer } from '../../dev/harness/redis-server';
import { ServiceUnavailableError } from '../../core/unavailable';
import { outOfCreditMarks, slotKey, userSlots } from './user-slots';

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

  it('gives a slot back once a Redis that hung answers again, though the take reached it after its caller gave up', {
    timeout: 120_000,
  }, async () => {
    const server = await startRedisServer();
    // The api's own client settings: a command with no reply in time fails, and is still on its way to Redis.
    const client = createRedis({ redisUrl: server.url, redisClusterNodes: null }, 'requests');
    client.on('error', () => {});
    try {
      if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
      const slots = userSlots(client, { prefix, max: 1 });
      // The script is loaded (EVALSHA answers) before Redis hangs, as on a running api.
      expect((await slots.take(10)).kind).toBe('taken');
      server.pause();
      const failed = await slots.take(11).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(ServiceUnavailableError);
      server.resume();
      // The take ran once Redis went on; its slot is given up, so the user's one slot is free again.
      await vi.waitFor(async () => expect(await client.zcard(slotKey(prefix, 11))).toBe(0), { timeout: 60_000, interval: 100 });
      expect((await slots.take(11)).kind).toBe('taken');
    } finally {
      client.disconnect();
      await server.stop();
    }
  });

  it('takes nothing for a token given up before its take reaches Redis', async () => {
    const take = redisScript('take-search-slot', 3);
    const giveUp = redisScript('give-up-search-slot', 2);
    const keys = [slotKey(prefix, 12), `${prefix}:no-mark`, `${prefix}:search-slots-given-up:12`];
    await giveUp(redis, [keys[0]!, keys[2]!], [Date.now(), 'late', 60_000]);
    expect(await take(redis, keys, [Date.now(), 5, 'late', 60_000])).toEqual([0]);
    expect(await redis.zcard(slotKey(prefix, 12))).toBe(0);
    expect(await take(redis, keys, [Date.now(), 5, 'on time', 60_000])).toEqual([1, 0]);
  });
});
