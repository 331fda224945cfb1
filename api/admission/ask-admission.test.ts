import { createHash } from 'node:crypto';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedis } from '../../core/redis/client';
import { redisScript } from '../../core/redis/script';
import { freePort } from '../../dev/harness/processes';
import { createTestRedis, deletePrefix, testQueuePrefix } from '../../dev/harness/redis';
import { ServiceUnavailableError } from '../../core/unavailable';
import { askAdmission, userRateKeyPrefix } from './ask-admission';
import { slotKey, userSlots } from './user-slots';

describe('askAdmission', () => {
  const prefix = testQueuePrefix();
  const redis = createTestRedis();
  afterAll(async () => {
    await deletePrefix(redis, prefix);
    redis.disconnect();
  });

  it('takes at most `maxSearches` slots, and past the rate refuses without taking one', async () => {
    const gate = askAdmission(redis, { prefix, perMinute: 3, maxSearches: 2 });
    const slots = userSlots(redis, { prefix });
    const a = await gate.admit(1);
    const b = await gate.admit(1);
    expect(a.kind).toBe('admitted');
    expect(b.kind).toBe('admitted');
    expect(await gate.admit(1)).toEqual({ kind: 'busy' });
    if (a.kind === 'admitted') await slots.release(1, a.token);
    const late = await gate.admit(1);
    expect(late.kind).toBe('too_fast');
    expect(late.kind === 'too_fast' && late.msBeforeNext).toBeGreaterThan(58_000);
    // The refused ask took no slot: only b's is held, so the one freed above is still free.
    expect(await redis.zcard(slotKey(prefix, 1))).toBe(1);
    expect((await gate.admit(2)).kind).toBe('admitted');
  });

  it('counts on the same budget as the rate limiter of POST /api/schedule', async () => {
    const limiter = new RateLimiterRedis({ storeClient: redis, keyPrefix: userRateKeyPrefix(prefix), points: 2, duration: 60 });
    const gate = askAdmission(redis, { prefix, perMinute: 2, maxSearches: 5 });
    await limiter.consume('7');
    expect((await gate.admit(7)).kind).toBe('admitted');
    const refused = await limiter.consume('7').catch((res: unknown) => res);
    expect(refused).toMatchObject({ consumedPoints: 3, remainingPoints: 0 });
    expect((await gate.admit(7)).kind).toBe('too_fast');
  });

  it('admits the asks that reach it in one turn with one script behind the first, each as if it came alone, in order', async () => {
    const gate = askAdmission(redis, { prefix, perMinute: 3, maxSearches: 2 });
    const { result, scripts } = await scriptsSentDuring(() => Promise.all([11, 11, 11, 11, 12].map((id) => gate.admit(id))));
    // User 11: two slots, then busy (a third ask takes no slot), then over the rate; user 12 on its own budget.
    expect(result.map((a) => a.kind)).toEqual(['admitted', 'admitted', 'busy', 'too_fast', 'admitted']);
    // The first, finding no script awaiting its reply, went at once; the four that came meanwhile went together.
    expect(scripts).toBe(2);
    const tokens = result.flatMap((a) => (a.kind === 'admitted' ? [a.token] : []));
    expect(new Set(tokens).size).toBe(3);
    expect(await redis.zrange(slotKey(prefix, 11), 0, -1)).toEqual(expect.arrayContaining(tokens.slice(0, 2)));
    expect(await redis.zcard(slotKey(prefix, 11))).toBe(2);
  });

  it('fails only the ask whose keys Redis refuses, not the others of its script', async () => {
    const gate = askAdmission(redis, { prefix, perMinute: 10, maxSearches: 2 });
    // User 21's rate window is a hash: INCRBY on it is refused (WRONGTYPE).
    await redis.hset(`${userRateKeyPrefix(prefix)}:21`, 'not', 'a counter');
    const settled = await Promise.allSettled([22, 21, 23, 22].map((id) => gate.admit(id)));
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value.kind : (s.reason as Error).name))).toEqual([
      'admitted',
      'ServiceUnavailableError',
      'admitted',
      'admitted',
    ]);
    expect(await redis.zcard(slotKey(prefix, 22))).toBe(2);
  });

  /** What `run` returned, and how many scripts this file's prefix saw meanwhile, read from Redis's MONITOR. */
  async function scriptsSentDuring<T>(run: () => Promise<T>): Promise<{ result: T; scripts: number }> {
    const monitor = await redis.monitor();
    const done = `${prefix}:done`;
    let scripts = 0;
    const ended = new Promise<void>((resolve) =>
      monitor.on('monitor', (_time: string, args: string[]) => {
        if (args[0]?.toLowerCase().startsWith('eval') && args.some((a) => a.startsWith(prefix))) scripts++;
        if (args[0]?.toLowerCase() === 'echo' && args[1] === done) resolve();
      }),
    );
    const result = await run();
    await redis.echo(done);
    await ended;
    monitor.disconnect();
    return { result, scripts };
  }

  it('says Redis is unavailable (ServiceUnavailableError) instead of failing with its raw error', async () => {
    const down = createRedis({ redisUrl: `redis://127.0.0.1:${await freePort()}`, redisClusterNodes: null }, 'requests');
    down.on('error', () => {}); // refused connections, expected here
    const err = await askAdmission(down, { prefix, perMinute: 3, maxSearches: 2 })
      .admit(1)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    down.disconnect();
  });
});

describe('redisScript', () => {
  const redis = createTestRedis();
  afterAll(() => redis.disconnect());

  it('sends a script the server has not seen once, then only its SHA1', async () => {
    const lua = `-- ${testQueuePrefix()}\nreturn tonumber(ARGV[1]) + 1`;
    const run = redisScript(lua);
    const [before] = (await redis.script('EXISTS', sha1(lua))) as number[];
    expect(before).toBe(0);
    expect(await run(redis, [], [41])).toBe(42);
    const [after] = (await redis.script('EXISTS', sha1(lua))) as number[];
    expect(after).toBe(1);
    expect(await run(redis, [], [1])).toBe(2);
  });
});

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
