import { execFileSync } from 'node:child_process';
import { existsSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiNodeFlags } from '../../dev/harness/api-node-flags';
import { type ChildServer, freePort, spawnNode } from '../../dev/harness/processes';
import { until } from '../../dev/harness/wait';

export interface BeforeApi {
  server: ChildServer;
  /** The checkout's commit, short (its directory's name when it is no git checkout), to name its rows. */
  commit: string;
  /** The Node it runs on: the checkout's own (`make deps` fetched the one it pinned), else this one. */
  node: string;
}

/**
 * The built api of another checkout (`dir`, e.g. one made at the commit before a change: `git worktree add
 * /tmp/before <commit> && cd /tmp/before && make deps build`), started as one process like ours, from its own
 * directory with the Node it pinned, on the same database, Redis and stand-ins (`env`: the bench stack's), so both
 * are measured in one run. Its warnings and errors go to a log file, named when it stops before it is told to.
 */
export async function startBeforeApi(dir: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<BeforeApi> {
  const entry = path.join(dir, 'dist/server/api.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build that checkout first (cd ${dir} && make deps build).`);
  const own = path.join(dir, '.dev-tools/node/bin/node');
  const node = existsSync(own) ? own : process.execPath;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = path.join(tmpdir(), `stream-before-api-${port}.log`);
  const child = spawnNode(
    [...apiNodeFlags(), ...nodeArgs, entry],
    { ...env, APP_URL: url, PORT: String(port), API_PROCESSES: '1', LOG_LEVEL: 'warn' },
    { cwd: dir, node, stdout: openSync(log, 'w') },
  );
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`the api of ${dir} stopped (${signal ?? `exit ${code}`}); its log: ${log}`);
  });
  await until(`the api of ${dir} to listen`, async () => child.exitCode === null && (await fetch(`${url}/healthz`)).ok, 90_000);
  const server: ChildServer = {
    url,
    pid: child.pid!,
    rssMiB: () => 0,
    stop: () =>
      new Promise((resolve) => {
        stopping = true;
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
  return { server, commit: checkoutName(dir), node: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim() };
}

function checkoutName(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return path.basename(dir);
  }
}
