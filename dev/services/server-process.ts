import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { freePort } from '../harness/processes';
import { answers } from './answers';
import type { ServiceUser } from './service-user';

/** A server this checkout started for itself: where it answers, and how to stop it. */
export interface OwnServer {
  url: string;
  port: number;
  /** Set when another command of this checkout had started it: used as it is, and left running. */
  reusedPid?: number;
  stop: () => Promise<void>;
}

/**
 * The loopback port saved in `file` when nothing answers there now, else a free one (then saved): the same
 * server keeps its address across restarts, so DATABASE_URL, and what is keyed by it, stay the same.
 */
export async function stablePort(file: string): Promise<number> {
  const saved = existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : 0;
  if (saved > 0 && saved < 65536 && !(await answers('127.0.0.1', saved))) return saved;
  const port = await freePort();
  writeFileSync(file, `${port}\n`);
  return port;
}

/**
 * Starts a server in its own process group (Ctrl-C in the terminal reaches make's runner, which stops it in
 * order, not the server directly), its output appended to `logFile`.
 */
export function startServer(command: string, args: string[], logFile: string, user: ServiceUser | null): ChildProcess {
  const log = openSync(logFile, 'a');
  try {
    return spawn(command, args, {
      stdio: ['ignore', log, log],
      detached: true,
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
    });
  } finally {
    closeSync(log);
  }
}

const exitOf = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

/** Waits until `ready` says yes; fails at once, with the end of the log, when the server exits instead. */
export async function untilReady(
  child: ChildProcess,
  what: string,
  logFile: string,
  ready: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  let exited = false;
  void exitOf(child).then(() => (exited = true));
  const deadline = Date.now() + timeoutMs;
  while (!(await ready().catch(() => false))) {
    if (exited || Date.now() > deadline) {
      child.kill('SIGKILL');
      const tail = readFileSync(logFile, 'utf8').trim().split('\n').slice(-5).join('\n');
      throw new Error(
        `${what} did not start (${exited ? `it exited with ${child.exitCode ?? child.signalCode}` : 'timed out'}); its log, ${logFile}, ends:\n${tail}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Sends `signal` (the server's own clean shutdown) and waits for the exit; SIGKILL after `graceMs`. */
export async function stopServer(child: ChildProcess, signal: NodeJS.Signals, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = exitOf(child);
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * The server another command of this checkout started on this data and that still runs (`make migrate` while
 * `make dev` runs, or one a killed run left behind): the pid in `pidFile` is a live `name` process and the saved
 * port in `portFile` answers. It is used as it is and left running: it is not this command's to stop.
 */
export async function runningServer(pidFile: string, portFile: string, name: string): Promise<{ pid: number; port: number } | null> {
  if (!existsSync(pidFile) || !existsSync(portFile)) return null;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  const port = Number(readFileSync(portFile, 'utf8').trim());
  if (!(pid > 0 && port > 0)) return null;
  try {
    if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(name)) return null;
  } catch {
    return null; // gone (or not Linux: then a new server is started, and Postgres's own lock refuses a second)
  }
  return (await answers('127.0.0.1', port)) ? { pid, port } : null;
}
