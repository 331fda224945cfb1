import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A child of `make dev` started as the leader of its own process group. Stopping it signals the whole group,
 * so nothing under it (tsx watch, the app it restarts, esbuild's service) is left running on a port after
 * `make dev` is stopped, whether by Ctrl-C or by a SIGTERM sent to `make` or to the runner alone.
 */
export interface ProcessGroup {
  name: string;
  child: ChildProcess;
  /** Settles with the leader's exit code (or signal name) once it has exited. */
  exited: Promise<number | string | null>;
}

export function startGroup(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { stdout?: 'inherit' | 'pipe' } = {},
): ProcessGroup {
  // detached: the child leads a new process group (and session). stdin is not shared: only the runner reads
  // the terminal, so Ctrl-C reaches the runner, which then stops each group itself. stdout 'pipe': the runner
  // reads it (make dev shows the JSON logs readably).
  const child = spawn(command, args, { env, stdio: ['ignore', options.stdout ?? 'inherit', 'inherit'], detached: true });
  const exited = new Promise<number | string | null>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal));
    child.once('error', (err) => {
      console.error(`dev: could not start ${name}: ${err.message}`);
      resolve(null);
    });
  });
  return { name, child, exited };
}

/** Sends a signal to every process of the group; false when none is left (or it never started). */
export function signalGroup(group: ProcessGroup, signal: NodeJS.Signals | 0): boolean {
  const pid = group.child.pid;
  if (pid === undefined) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is empty.
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * SIGTERM to every group, then waits until each group is empty (not just its leader: the app may still be
 * finishing requests or a timer run); what is left after `graceMs` gets SIGKILL.
 */
export async function stopGroups(groups: ProcessGroup[], options: { graceMs: number; pollMs?: number }): Promise<void> {
  for (const group of groups) signalGroup(group, 'SIGTERM');
  const deadline = Date.now() + options.graceMs;
  let alive = groups.filter((g) => signalGroup(g, 0));
  while (alive.length > 0 && Date.now() < deadline) {
    await delay(options.pollMs ?? 100);
    alive = alive.filter((g) => signalGroup(g, 0));
  }
  for (const group of alive) {
    console.error(`dev: ${group.name} did not stop within ${options.graceMs} ms; killing it`);
    signalGroup(group, 'SIGKILL');
  }
}
