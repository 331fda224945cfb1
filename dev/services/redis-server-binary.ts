import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** `redis-server` on PATH (or Debian's /usr/bin and /usr/sbin), else null. */
export function findRedisServer(pathEnv = process.env.PATH ?? ''): string | null {
  for (const dir of [...pathEnv.split(path.delimiter).filter(Boolean), '/usr/bin', '/usr/sbin']) {
    const found = path.join(dir, 'redis-server');
    if (existsSync(found)) return found;
  }
  return null;
}

const INSTALL = 'apt-get install -y --no-install-recommends redis-server';

/**
 * The machine's redis-server; as root on Debian or Ubuntu it is installed with apt-get (as `make test` does for
 * Chromium), otherwise the error says the one command to run.
 */
export function redisServerOrInstall(isRoot = process.getuid?.() === 0, hasAptGet = existsSync('/usr/bin/apt-get')): string {
  const found = findRedisServer();
  if (found) return found;
  if (!isRoot || !hasAptGet) {
    const command = hasAptGet ? `sudo ${INSTALL}` : 'install Redis 7 (redis-server; on macOS: brew install redis)';
    throw new Error(`No redis-server on this machine, and nothing answers at REDIS_URL's default. Run: ${command}, or set REDIS_URL.`);
  }
  console.log(`services: installing redis-server (apt-get)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install = spawnSync('apt-get', INSTALL.split(' ').slice(1).concat('-qq'), { stdio: 'inherit', env });
  const installed = findRedisServer();
  if (install.status !== 0 || !installed)
    throw new Error(`apt-get could not install redis-server; run ${INSTALL} and look at what it says.`);
  return installed;
}
