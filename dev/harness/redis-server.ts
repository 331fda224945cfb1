import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './processes';
import { until } from './wait';

export interface RedisServer {
  url: string;
  /** Stops the server's process without closing its connections (SIGSTOP): a Redis that hangs. */
  pause: () => void;
  /** Lets a paused server run again (SIGCONT). */
  resume: () => void;
  stop: () => Promise<void>;
}

/**
 * A `redis-server` of a test's or benchmark's own on a free loopback port (no persistence), started with `args`,
 * for what cannot be done to the shared one: pausing it (a Redis that hangs instead of closing), or measuring a
 * setting.
 */
export async function startRedisServer(args: readonly string[] = []): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  probe.on('error', () => {});
  try {
    await until('the redis-server to answer', async () => {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      if (probe.status === 'wait') await probe.connect();
      return (await probe.ping()) === 'PONG';
    });
  } finally {
    probe.disconnect();
  }
  const signal = (name: NodeJS.Signals) => {
    if (child.exitCode === null) child.kill(name);
  };
  return {
    url,
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited;
    },
  };
}
