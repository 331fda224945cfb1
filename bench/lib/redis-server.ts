import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from '../../dev/harness/processes';
import { until } from '../../dev/harness/wait';

export interface PrivateRedis {
  redis: Redis;
  stop: () => Promise<void>;
}

/**
 * A throwaway `redis-server` of the benchmark's own on a free loopback port (no persistence), started with
 * `args` (e.g. the settings docs/operations.md recommends), so a setting can be measured without touching the shared Redis.
 */
export async function startPrivateRedis(args: string[]): Promise<PrivateRedis> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const redis = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: null, lazyConnect: true });
  redis.on('error', () => {});
  await until('the private redis-server to answer', async () => {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    if (redis.status === 'wait') await redis.connect();
    return (await redis.ping()) === 'PONG';
  });
  return {
    redis,
    stop: async () => {
      redis.disconnect();
      if (child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}
