import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTimer } from '../core/timers/lifecycle';
import { WORKER_DIED_NO_WEBSITE_ERROR } from '../core/timers/worker-deaths';
import { listRuns } from '../db/timer-runs';
import { testBaseEnv } from '../dev/harness/base-env';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import { enqueueScheduledFire } from './support/runs';

// A run that ends every worker process that takes it (out of memory, a crash) must not take the fleet down in
// turn: real worker processes, killed with SIGKILL while running it, and BullMQ's own stalled-job checks.
describe('a run whose worker processes die while running it', () => {
  let stack: TestStack;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    stack.standins.gemini.reset();
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** A timers worker process on the stack's database, queue prefix and stand-ins; resolves once it takes jobs. */
  async function workerProcess(): Promise<ChildProcess> {
    const env = {
      ...testBaseEnv({ appUrl: stack.url, databaseUrl: stack.db.url, queuePrefix: stack.config.queuePrefix, standins: stack.standins }),
      ADMIN_USER: 'ops',
      ADMIN_PASSWORD: 'crash test',
    };
    // Locks of 2 s checked every second (BullMQ's are 30 s), so a dead worker's job is found stalled in seconds.
    const child = spawn(process.execPath, ['--import', 'tsx', 'dev/harness/timers-worker-process.ts', '2000', '1000'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the worker process exited with ${code} before it was ready`)));
      createInterface({ input: child.stdout! }).on('line', (line) => line === 'ready' && resolve());
    });
    child.removeAllListeners('exit');
    return child;
  }

  async function kill(child: ChildProcess): Promise<void> {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async function newTimer() {
    const { user } = await createSignedInUser(stack.db.sql);
    const created = await createTimer(stack.deps, user.id, dailyTimer());
    if (!created.ok) throw new Error('timer not created');
    return created.timer;
  }

  /** One fire of the timer, enqueued as its scheduler enqueues it. */
  const fire = (timerId: number, at: number) => enqueueScheduledFire(stack.deps.timersQueue, timerId, at);

  const timerRow = async (timerId: number) =>
    (
      await stack.db.sql<{ consecutive_failures: number; paused_at: Date | null }[]>`
      select consecutive_failures, paused_at from timers where id = ${timerId}`
    )[0]!;

  it('after the second death the run ends failed with its sentence, not counted towards auto-pause (no website), and other timers run on', async () => {
    const poison = await newTimer();
    const healthy = await newTimer();
    const gemini = stack.standins.gemini;
    // Every take of the run is held at its Gemini call, where the worker process is then killed.
    gemini.holdAnswers();
    let worker = await workerProcess();
    await fire(poison.id, Date.UTC(2026, 3, 5, 7));
    for (let death = 1; death <= 2; death++) {
      await until(`take ${death} of the run to reach Gemini`, async () => gemini.held.length === death, 60_000);
      const [run] = await listRuns(stack.db.sql, poison.id);
      expect(run!.status).toBe('running');
      await kill(worker);
      // The next process finds the job stalled once the dead one's lock has lapsed, and takes it again.
      worker = await workerProcess();
    }

    const [run] = await until(
      'the run to end',
      async () => {
        const runs = await listRuns(stack.db.sql, poison.id);
        return runs.length === 1 && runs[0]!.status !== 'running' ? runs : null;
      },
      60_000,
    );
    expect(run).toMatchObject({ status: 'failed', error: WORKER_DIED_NO_WEBSITE_ERROR });
    // The third take failed the run without reading: no third Gemini call.
    expect(gemini.held).toHaveLength(2);
    // Nothing the person set is to blame for a timer without a website: the failure does not count toward auto-pause.
    expect((await timerRow(poison.id)).consecutive_failures).toBe(0);

    // The worker process that refused the run keeps running the others.
    gemini.holdAnswers(false);
    await fire(healthy.id, Date.UTC(2026, 3, 5, 8));
    const [other] = await until('the other timer’s run to end', async () => {
      const runs = await listRuns(stack.db.sql, healthy.id);
      return runs.length === 1 && runs[0]!.status !== 'running' ? runs : null;
    });
    expect(other!.status).toBe('succeeded');
    expect(await timerRow(healthy.id)).toMatchObject({ consecutive_failures: 0, paused_at: null });
    expect(worker.exitCode).toBeNull();
    // Three worker processes start under tsx on a shared machine: each can take half a minute.
  }, 240_000);
});
