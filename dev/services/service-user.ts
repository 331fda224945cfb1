import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The account a server runs as when this process is root (Postgres refuses to run as root). */
export interface ServiceUser {
  name: string;
  uid: number;
  gid: number;
}

/** Postgres's own system account when the machine has one, else `nobody`; null when not root. */
export function serviceUser(isRoot = process.getuid?.() === 0, passwd = readPasswd()): ServiceUser | null {
  if (!isRoot) return null;
  const accounts = new Map<string, ServiceUser>();
  for (const line of passwd.split('\n')) {
    const [name, , uid, gid] = line.split(':');
    if (name && uid && gid) accounts.set(name, { name, uid: Number(uid), gid: Number(gid) });
  }
  const user = accounts.get('postgres') ?? accounts.get('nobody');
  if (!user)
    throw new Error('Running as root, with neither a postgres nor a nobody account to run Postgres as: run make as an ordinary user.');
  return user;
}

function readPasswd(): string {
  try {
    return readFileSync('/etc/passwd', 'utf8');
  } catch {
    return '';
  }
}

/**
 * Hands `dir` (and what is in it) to `user`, then checks that the user can write there: a checkout under a
 * folder only root may enter (a home of mode 700) cannot hold data of another user's server.
 */
export function handOver(dir: string, user: ServiceUser): void {
  const chown = spawnSync('chown', ['-R', `${user.uid}:${user.gid}`, dir], { encoding: 'utf8' });
  if (chown.status !== 0) throw new Error(`Could not hand ${dir} to the ${user.name} user: ${chown.stderr.trim()}`);
  const probe = spawnSync('test', ['-w', dir], { uid: user.uid, gid: user.gid });
  if (probe.status !== 0) {
    throw new Error(
      `Postgres refuses to run as root, so it runs as the ${user.name} user, who cannot reach ${dir}: let others enter the checkout's parent folders (chmod o+x on each), clone it elsewhere, or run make as an ordinary user.`,
    );
  }
}
