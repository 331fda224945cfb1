import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { until } from './wait';

export interface ChildServer {
  url: string;
  pid: number;
  /** Resident set size of the process now, in MiB. */
  rssMiB: () => number;
  stop: () => Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Resolves when `url` answers ok; rejects as soon as the child exits instead. */
// Generous: a tsx-loaded process on a busy two-core machine can take half a minute to listen.
async function whenUp(url: string, child: ChildProcess, timeoutMs = 90_000): Promise<void> {
  let onExit: () => void = () => {};
  const exited = new Promise<never>((_, reject) => {
    onExit = () => reject(new Error(`${url}: process exited with ${child.exitCode}`));
    if (child.exitCode !== null) onExit();
    else child.once('exit', onExit);
  });
  try {
    await Promise.race([until(`${url} to come up`, async () => (await fetch(url)).ok, timeoutMs), exited]);
  } finally {
    child.off('exit', onExit);
  }
}

/** Resident size of a process and its children (an api's node:cluster processes), in MiB; 0 for one gone. */
function treeRssMiB(pid: number): number {
  let own = 0;
  let children: number[] = [];
  try {
    own = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    // Gone: it holds no memory.
  }
  return own + children.reduce((sum, child) => sum + treeRssMiB(child), 0);
}

export interface SpawnOptions {
  /** Working directory (default: this one). */
  cwd?: string;
  /** Run as this user and group (when this process may), as an image's USER does. */
  uid?: number;
  gid?: number;
  /** Start from this process's environment (default) or from `env` alone, as a container does. */
  inheritEnv?: boolean;
  /** The node binary (default: the one running this process). */
  node?: string;
  /** Where its standard output goes: a file descriptor (default: nowhere). */
  stdout?: number;
}

/** Starts `node args` with stderr passed through (a failing child says why in the test output). */
export function spawnNode(args: string[], env: Record<string, string>, options: SpawnOptions = {}): ChildProcess {
  return spawn(options.node ?? process.execPath, args, {
    env: options.inheritEnv === false ? env : { ...process.env, ...env },
    cwd: options.cwd,
    uid: options.uid,
    gid: options.gid,
    stdio: ['ignore', options.stdout ?? 'ignore', 'inherit'],
  });
}

/** Starts a Node process (the built api, or a baseline server) on its own port and waits for it to answer. */
export async function startChild(
  args: string[],
  env: Record<string, string>,
  options: { port?: number; readyPath?: string; portVar?: string } & SpawnOptions = {},
): Promise<ChildServer> {
  const port = options.port ?? (await freePort());
  const readyPath = options.readyPath ?? '/healthz';
  // A worker has no PORT; its metrics server (WORKER_METRICS_PORT) answers /healthz once it takes jobs.
  const child = spawnNode(args, { ...env, [options.portVar ?? 'PORT']: String(port) }, options);
  const url = `http://127.0.0.1:${port}`;
  try {
    await whenUp(url + readyPath, child);
  } catch (err) {
    child.kill('SIGKILL'); // never leave a half-started process behind
    throw err;
  }
  return {
    url,
    pid: child.pid!,
    rssMiB: () => treeRssMiB(child.pid!),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
