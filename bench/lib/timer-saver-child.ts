// A process of its own that saves and deletes one user's timer again and again, as an api process would, until
// SIGTERM; then it prints each save as [epoch ms at its start, ms it took] and exits. It prints `ready` once
// its first save is done. Env: DATABASE_URL, REDIS_URL, QUEUE_PREFIX (as the product reads them), SAVER_USER_ID.
import { createTimersQueue } from '../../core/jobs';
import { parseTimerInput } from '../../core/timers/input';
import { createTimer, deleteTimer } from '../../core/timers/lifecycle';
import { createSql } from '../../db/client';
import { Redis } from 'ioredis';

const check = parseTimerInput({
  scheduleType: 'daily',
  time: '09:00',
  weekday: 'Wednesday',
  ques: 'Kubernetes meetups',
  web: '',
  timezone: 'UTC',
});
if (!check.ok) throw new Error(check.message);
const sql = createSql(process.env.DATABASE_URL!, { max: 2 });
const redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
const deps = { sql, timersQueue: createTimersQueue(redis, process.env.QUEUE_PREFIX!) };
const userId = Number(process.env.SAVER_USER_ID);

let stopping = false;
process.on('SIGTERM', () => {
  stopping = true;
});
const saves: [number, number][] = [];
while (!stopping) {
  const at = Date.now();
  const start = performance.now();
  const created = await createTimer(deps, userId, check.input);
  if (!created.ok) throw new Error('the saver ran out of room');
  await deleteTimer(deps, userId, created.timer.id);
  saves.push([at, performance.now() - start]);
  if (saves.length === 1) process.stdout.write('ready\n');
}
process.stdout.write(`${JSON.stringify(saves)}\n`);
await deps.timersQueue.close();
redis.disconnect();
await sql.end();
