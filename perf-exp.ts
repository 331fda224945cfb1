import { Redis } from 'ioredis';
import { Queue } from 'bullmq';
const conn = new Redis('redis://127.0.0.1:6399', { maxRetriesPerRequest: null });
const N = 5000;
async function variant(label: string, sid: (i: number) => string, name: string, opts: object, events?: number) {
  const q = new Queue('timers', { connection: conn, prefix: '{perfexp}', ...(events ? { streams: { events: { maxLen: events } } } : {}) });
  await q.obliterate({ force: true }).catch(() => {});
  await q.waitUntilReady();
  const used = async () => Number(/used_memory:(\d+)/.exec(await conn.info('memory'))![1]);
  const before = await used();
  for (let i = 0; i < N; i += 100) await Promise.all(Array.from({ length: 100 }, (_, k) => q.upsertJobScheduler(sid(100000 + i + k), { pattern: '0 9 * * *', tz: 'Europe/Berlin' }, { name, data: { timerId: 100000 + i + k }, opts })));
  const after = await used();
  const s = sid(100001);
  const skey = `{perfexp}:timers:repeat:${s}`;
  const jkeys = await conn.keys(`${skey}:*`);
  const mu = async (k: string) => conn.memory('USAGE', k, 'SAMPLES', '0');
  console.log(label, 'per timer', ((after - before) / N).toFixed(0), 'sched', await mu(skey), await conn.object('ENCODING', skey), 'job', await mu(jkeys[0]!), await conn.object('ENCODING', jkeys[0]!),
    'delayed/N', ((await mu('{perfexp}:timers:delayed')) as number / N).toFixed(0), 'repeat/N', ((await mu('{perfexp}:timers:repeat')) as number / N).toFixed(0), 'events', await mu('{perfexp}:timers:events'));
  console.log('  ', (await conn.hget(jkeys[0]!, 'opts'))?.length, await conn.hget(jkeys[0]!, 'opts'));
  await q.obliterate({ force: true });
  await q.close();
}
const full = { attempts: 4, backoff: { type: 'exponential', delay: 30000 }, removeOnComplete: { age: 7 * 24 * 3600, count: 1000 }, removeOnFail: { age: 30 * 24 * 3600, count: 5000 } };
await variant('current', (i) => `timer-${i}`, 'run-timer', full);
await variant('trim', (i) => `timer-${i}`, 'run-timer', { attempts: 4, backoff: { type: 'timer' } });
await variant('trim+short', (i) => `t${i}`, 'run', { attempts: 4, backoff: { type: 't' } });
await variant('trim+short+ev', (i) => `t${i}`, 'run', { attempts: 4, backoff: { type: 't' } }, 100);
await variant('nothing', (i) => `t${i}`, 'run', {}, 100);
conn.disconnect();
