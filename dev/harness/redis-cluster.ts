import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from './processes';
import { until } from './wait';

const run = promisify(execFile);

export interface RedisCluster {
  /** `127.0.0.1:port,...`, the value of REDIS_CLUSTER_NODES. */
  nodes: string;
  ports: number[];
  stop: () => Promise<void>;
}

async function ask<T>(port: number, op: (r: Redis) => Promise<T>): Promise<T> {
  const r = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on('error', () => {});
  try {
    await r.connect();
    return await op(r);
  } finally {
    r.disconnect();
  }
}

/**
 * A real Redis Cluster on loopback: `count` masters (`redis-server --cluster-enabled yes`, no persistence, each
 * in a temporary directory), joined with `redis-cli --cluster create`, returned once every node reports
 * `cluster_state:ok`. The bus ports are chosen too (`--cluster-port`), since port + 10000 may not be free.
 */
export async function startRedisCluster(count = 3): Promise<RedisCluster> {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  const ports: number[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 5000).unref();
          }),
      ),
    );
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  };
  try {
    for (let i = 0; i < count; i++) {
      const port = await freePort();
      const busPort = await freePort();
      const dir = await mkdtemp(path.join(os.tmpdir(), `redis-cluster-${port}-`));
      dirs.push(dir);
      // Spawned one by one, so a port taken between freePort and bind shows as an early exit, not a hang.
      const child = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--cluster-port',
          String(busPort),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          path.join(dir, 'nodes.conf'),
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'no',
          '--daemonize',
          'no',
          '--loglevel',
          'warning',
        ],
        { stdio: ['ignore', 'ignore', 'inherit'] },
      );
      children.push(child);
      ports.push(port);
      await until(
        `node ${port} to answer`,
        async () => {
          if (child.exitCode !== null) throw new Error(`redis-server on ${port} exited with ${child.exitCode}`);
          return (await ask(port, (r) => r.ping())) === 'PONG';
        },
        30_000,
      );
    }
    const nodes = ports.map((p) => `127.0.0.1:${p}`);
    await run('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes']);
    await until(
      'cluster_state:ok on every node',
      async () => {
        const infos = await Promise.all(ports.map((p) => ask(p, (r) => r.cluster('INFO'))));
        return infos.every((info) => /cluster_state:ok/.test(info) && new RegExp(`cluster_known_nodes:${count}\\b`).test(info));
      },
      30_000,
    );
    return { nodes: nodes.join(','), ports, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
