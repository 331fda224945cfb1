import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userSlots } from '../api/admission/user-slots';
import { schedulerId } from '../core/timers/scheduler';
import { listRuns } from '../db/timer-runs';
import { ask, readChunks } from './support/ask';
import { startRedisCluster, type RedisCluster } from '../dev/harness/redis-cluster';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import { dailyTimer } from '../dev/harness/timer-input';

describe('against a real three-node Redis Cluster (REDIS_CLUSTER_NODES)', () => {
  let cluster: RedisCluster;
  let stack: TestStack;

  beforeAll(async () => {
    cluster = await startRedisCluster(3);
    stack = await startTestStack({ env: { REDIS_CLUSTER_NODES: cluster.nodes } });
  });
  afterAll(async () => {
    await stack?.close();
    await cluster?.stop();
  });

  /** Every key of this stack's prefix, per master node. */
  async function keysByNode(): Promise<string[][]> {
    const redis = stack.redis as Cluster;
    return Promise.all(redis.nodes('master').map((node) => node.keys(`${stack.config.queuePrefix}*`)));
  }

  it('connects api and worker through ioredis Cluster', () => {
    expect(stack.redis).toBeInstanceOf(Cluster);
    expect(stack.config.redisClusterNodes).toHaveLength(3);
  });

  it('saves a timer, its scheduler exists, a worker fires it and one run with one credit is recorded', async () => {
    const { cookie, user } = await createSignedInUser(stack.db.sql);
    const res = await fetch(`${stack.url}/api/schedule`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: stack.url },
      body: JSON.stringify(dailyTimer({ ques: 'AI conferences in Berlin' })),
    });
    expect(res.status).toBe(200);
    const timer = await res.json();
    const queue = stack.deps.timersQueue;
    const scheduler = await queue.getJobScheduler(schedulerId(timer.id));
    expect(scheduler).toMatchObject({ pattern: '0 9 * * *', tz: 'Europe/Berlin' });
    const first = scheduler!.next!;

    await stack.startWorker();
    // The scheduler's own delayed job, fired now instead of at 09:00.
    await (await queue.getJob(`repeat:${schedulerId(timer.id)}:${first}`))!.promote();
    const runs = await until('the run to finish', async () => {
      const r = await listRuns(stack.db.sql, timer.id);
      return r.length && r.every((run) => run.status !== 'running') ? r : null;
    });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'succeeded', creditTaken: true, scheduledFor: new Date(first) });
    const [account] = await stack.db.sql`select searches_used from accounts where user_id = ${user.id}`;
    expect(account!.searches_used).toBe(1);
    // BullMQ armed the next fire, on the cluster too.
    await until('the next fire', async () => ((await queue.getJobScheduler(schedulerId(timer.id)))?.next ?? 0) > first);
  });

  it('answers an ask (per-user search slot on the cluster) and counts sign-in attempts there', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    const res = await ask(stack.url, cookie, { ques: 'AI conferences in Berlin', web: '', timezone: 'Europe/Berlin' });
    expect(res.status).toBe(200);
    expect((await readChunks(res)).map((c) => c.text).join('').length).toBeGreaterThan(10);
    const login = await fetch(`${stack.url}/api/auth/google`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'x.y.z' }),
    });
    expect(login.status).toBe(401);
    expect((await keysByNode()).flat().filter((k) => k.includes(':login-ip'))).toHaveLength(1);
  });

  it("takes search slots on the cluster: the slot script's keys share the prefix's slot", async () => {
    const slots = userSlots(stack.redis, { prefix: stack.config.queuePrefix, max: 1 });
    const takes = await Promise.all([101, 102, 103, 101].map((id) => slots.take(id)));
    expect(takes.map((t) => t.kind).sort()).toEqual(['busy', 'taken', 'taken', 'taken']);
  });

  it('keeps every key of the prefix on one node: the prefix is a hash tag, so BullMQ scripts never cross slots', async () => {
    const byNode = await keysByNode();
    const holding = byNode.filter((keys) => keys.length > 0);
    expect(holding).toHaveLength(1);
    const keys = holding[0]!;
    expect(keys.some((k) => k.includes(':timers:'))).toBe(true);
    const redis = stack.redis as Cluster;
    const slots = new Set(await Promise.all(keys.map((k) => redis.cluster('KEYSLOT', k))));
    expect(slots.size).toBe(1);
    // The proof has teeth: without the braces the same names spread over several nodes' slots.
    const untagged = new Set(await Promise.all(keys.map((k) => redis.cluster('KEYSLOT', k.replace(/[{}]/g, '')))));
    expect(untagged.size).toBeGreaterThan(1);
  });
});
