import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { findPostgresBinaries, type PostgresBinaries, versionOf } from './postgres-binaries';
import { type OwnServer, runningServer, stablePort, startServer, stopServer, untilReady } from './server-process';
import { handOver, reachableBinaries, type ServiceUser } from './service-user';

export interface OwnPostgresOptions {
  /** The cluster's folder (made with initdb on first use); beside it go its log and its saved port. */
  dataDir: string;
  /** Set when this process is root: Postgres refuses to run as root. `dataDir` must then be one it can enter. */
  user: ServiceUser | null;
  /** Which server (default: the machine's own, else the npm package's). */
  binaries?: PostgresBinaries;
}

/** A PostgreSQL server of this checkout's own, on 127.0.0.1: trust auth, superuser `postgres`. */
export async function startOwnPostgres(options: OwnPostgresOptions): Promise<OwnServer & { source: string }> {
  const { dataDir, user } = options;
  const found = options.binaries ?? findPostgresBinaries();
  const as = user ? { uid: user.uid, gid: user.gid } : {};
  // The state folder may hold other files of this checkout, but the server's user must be able to pass through it.
  const stateDir = path.dirname(dataDir);
  mkdirSync(stateDir, { recursive: true });
  if (user) chmodSync(stateDir, statSync(stateDir).mode | 0o111);
  // Binaries the server's user cannot reach (the npm package's, in a checkout under a folder only root enters)
  // are run from a copy beside the data.
  const binaries = user ? { ...found, bin: reachableBinaries(found.bin, user, stateDir, versionOf(found.bin)) } : found;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (user) handOver(dataDir, user);
  const versionFile = path.join(dataDir, 'PG_VERSION');
  if (!existsSync(versionFile)) {
    const init = spawnSync(
      path.join(binaries.bin, 'initdb'),
      ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
      { encoding: 'utf8', ...as },
    );
    if (init.status !== 0) throw new Error(`initdb could not make ${dataDir}: ${(init.stderr || init.stdout).trim()}`);
  }
  const dataMajor = Number(readFileSync(versionFile, 'utf8').trim());
  if (dataMajor !== binaries.major) {
    throw new Error(
      `${dataDir} holds PostgreSQL ${dataMajor} data, and the server here is ${binaries.source}: delete ${dataDir} to start with an empty database.`,
    );
  }
  const portFile = `${dataDir}.port`;
  const running = await runningServer(path.join(dataDir, 'postmaster.pid'), portFile, 'postgres');
  if (running) {
    const { port, pid } = running;
    return { url: `postgres://postgres@127.0.0.1:${port}`, port, reusedPid: pid, source: binaries.source, stop: async () => {} };
  }
  const port = await stablePort(portFile);
  const logFile = `${dataDir}.log`;
  // TCP on loopback only; no Unix socket, whose default folder (/var/run/postgresql) may not be writable.
  const child = startServer(
    path.join(binaries.bin, 'postgres'),
    ['-D', dataDir, '-p', String(port), '-h', '127.0.0.1', '-k', ''],
    logFile,
    user,
  );
  const url = `postgres://postgres@127.0.0.1:${port}`;
  await untilReady(child, `PostgreSQL (${binaries.source})`, logFile, async () => {
    const sql = postgres(`${url}/postgres`, { max: 1, connect_timeout: 2, onnotice: () => {} });
    try {
      await sql`select 1`;
      return true;
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
  // SIGINT: Postgres's fast shutdown (open sessions are ended, the data is written cleanly).
  return { url, port, source: binaries.source, stop: () => stopServer(child, 'SIGINT') };
}
