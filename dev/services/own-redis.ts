import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { redisServerOrInstall } from './redis-server-binary';
import { type OwnServer, runningServer, stablePort, startServer, stopServer, untilReady } from './server-process';

export interface OwnRedisOptions {
  /** Where it keeps its snapshot (dump.rdb) and pid; beside it go its log and its saved port. */
  dataDir: string;
  /** Keep the data across restarts (make dev), or nothing at all (the tests). */
  persist: boolean;
}

/** PING → PONG: Redis answers commands (not only connections) once it has loaded its snapshot. */
function pongs(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2_000, () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk;
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
    socket.once('error', () => done(false));
  });
}

/** A Redis server of this checkout's own, on 127.0.0.1. */
export async function startOwnRedis(options: OwnRedisOptions): Promise<OwnServer & { source: string }> {
  const binary = redisServerOrInstall();
  const { dataDir } = options;
  mkdirSync(dataDir, { recursive: true });
  const pidFile = path.join(dataDir, 'redis.pid');
  const portFile = `${dataDir}.port`;
  const running = await runningServer(pidFile, portFile, 'redis-server');
  if (running) {
    const { port, pid } = running;
    return { url: `redis://127.0.0.1:${port}`, port, reusedPid: pid, source: `the machine's Redis (${binary})`, stop: async () => {} };
  }
  const port = await stablePort(portFile);
  const logFile = `${dataDir}.log`;
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dataDir, '--pidfile', pidFile, '--daemonize', 'no'];
  // Redis's default snapshot rules when kept (and a last snapshot on shutdown); none for throwaway data.
  if (!options.persist) args.push('--save', '', '--appendonly', 'no');
  const child = startServer(binary, args, logFile, null);
  await untilReady(child, `Redis (${binary})`, logFile, () => pongs(port));
  return { url: `redis://127.0.0.1:${port}`, port, source: `the machine's Redis (${binary})`, stop: () => stopServer(child, 'SIGTERM') };
}
