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
async function whenUp(url: string, child: ChildProcess, timeoutMs = 20_000): Promise<void> {
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

/** Starts a Node process (the built api, or a baseline server) on its own port and waits for it to answer. */
export async function startChild(
  args: string[],
  env: Record<string, string>,
  options: { port?: number; readyPath?: string } = {},
): Promise<ChildServer> {
  const port = options.port ?? (await freePort());
  const readyPath = options.readyPath ?? '/healthz';
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await whenUp(url + readyPath, child);
  return {
    url,
    pid: child.pid!,
    rssMiB: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
