import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Copy {
  /** The stage copied from (`--from=`), or null for the build context (the repository). */
  from: string | null;
  src: string;
  dest: string;
}

export interface Stage {
  name: string | null;
  workdir: string;
  env: Record<string, string>;
  copies: Copy[];
  runs: string[];
  user: string | null;
}

/** Joins continuation lines and drops comments, as Docker reads a Dockerfile. */
function instructions(dockerfile: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const raw of dockerfile.split('\n')) {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    out.push(pending + line);
    pending = '';
  }
  return out;
}

/**
 * The Dockerfile's stages, each with what it copies, runs and sets. Only the instructions this project's
 * Dockerfile uses are understood; any other one throws, so a change to the image cannot slip past the image
 * test unread.
 */
export function parseDockerfile(dockerfile: string): Stage[] {
  const stages: Stage[] = [];
  for (const line of instructions(dockerfile)) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    const stage = stages.at(-1);
    switch (keyword.toUpperCase()) {
      case 'FROM': {
        const m = /^\S+(?:\s+AS\s+(\S+))?$/i.exec(args);
        if (!m) throw new Error(`Dockerfile: cannot read "${line}"`);
        stages.push({ name: m[1] ?? null, workdir: '/', env: {}, copies: [], runs: [], user: null });
        break;
      }
      case 'WORKDIR':
        stage!.workdir = path.posix.resolve(stage!.workdir, args);
        break;
      case 'ENV': {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:=|\s+)(.*)$/.exec(args);
        if (!m || /\s\w+=/.test(m[2]!)) throw new Error(`Dockerfile: write one variable per ENV line: "${line}"`);
        stage!.env[m[1]!] = m[2]!.replace(/^"(.*)"$/, '$1');
        break;
      }
      case 'COPY': {
        const words = rest.filter((w) => !w.startsWith('--chown=') && !w.startsWith('--chmod='));
        const from = words[0]?.startsWith('--from=') ? words.shift()!.slice('--from='.length) : null;
        const dest = words.pop();
        if (
          !dest ||
          words.length === 0 ||
          (words.length > 1 && !dest.endsWith('/')) ||
          words.some((w) => w.startsWith('--') || /[*?[]/.test(w))
        ) {
          throw new Error(`Dockerfile: the image test lays out COPY of named sources (no wildcards or other flags): "${line}"`);
        }
        for (const src of words) stage!.copies.push({ from, src, dest });
        break;
      }
      case 'RUN':
        stage!.runs.push(args);
        break;
      case 'USER':
        stage!.user = args;
        break;
      case 'EXPOSE':
      case 'CMD':
        break;
      default:
        throw new Error(`Dockerfile: the image test does not know "${keyword}" ("${line}")`);
    }
  }
  return stages;
}

export interface Layout {
  /** The final stage's WORKDIR, laid out: run the image's commands from here. */
  dir: string;
  /** The final stage's ENV. */
  env: Record<string, string>;
  stage: Stage;
  remove: () => void;
}

const ROOT = process.cwd();

/**
 * Copies as COPY does: a file into a destination ending in `/` keeps its name, a directory's contents go to
 * the destination. `root` stands for the stage's WORKDIR. With `move`, the source is moved instead.
 */
function copyInto(source: string, root: string, workdir: string, dest: string, move = false): void {
  let target = path.join(root, path.posix.relative(workdir, path.posix.resolve(workdir, dest)));
  if (dest.endsWith('/') && !statSync(source).isDirectory()) target = path.join(target, path.basename(source));
  mkdirSync(path.dirname(target), { recursive: true });
  if (move) renameSync(source, target);
  else cpSync(source, target, { recursive: true });
}

/**
 * Replays a stage that installs dependencies (its COPY from the repository and its RUN lines) in a temporary
 * directory and returns that directory, which stands for the stage's WORKDIR. npm answers from its cache.
 */
function replayStage(stage: Stage): string {
  const dir = mkdtempSync(path.join(tmpdir(), `eventfinder-stage-${stage.name}-`));
  for (const copy of stage.copies) {
    if (copy.from !== null) throw new Error(`Dockerfile stage ${stage.name}: the image test replays only copies from the repository`);
    copyInto(path.join(ROOT, copy.src), dir, stage.workdir, copy.dest);
  }
  for (const run of stage.runs) {
    if (!/^npm ci(\s|$)/.test(run)) {
      throw new Error(`Dockerfile stage ${stage.name}: the image test replays only "npm ci" (not "${run}")`);
    }
    execFileSync('/bin/sh', ['-c', run], {
      cwd: dir,
      env: { ...process.env, npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return dir;
}

/**
 * Lays out, in a temporary directory, exactly what the Dockerfile's final stage holds: each COPY, with
 * `--from=build` standing for this working tree after `make build` (the build stage runs that same build)
 * and any other stage replayed (the production-only `npm ci`).
 */
export function layoutImage(dockerfile = 'Dockerfile'): Layout {
  const stages = parseDockerfile(readFileSync(path.join(ROOT, dockerfile), 'utf8'));
  const final = stages.at(-1)!;
  if (final.runs.length > 0) throw new Error(`Dockerfile: the image test cannot lay out RUN in the final stage ("${final.runs[0]}")`);
  const dir = mkdtempSync(path.join(tmpdir(), 'eventfinder-image-'));
  // Readable by the image's unprivileged USER, as /app is in the image (mkdtemp makes it private).
  chmodSync(dir, 0o755);
  const replayed = new Map<string, string>();
  try {
    for (const copy of final.copies) {
      let source: string;
      if (copy.from === null) {
        source = path.join(ROOT, copy.src);
      } else {
        const stage = stages.find((s) => s.name === copy.from);
        if (!stage) throw new Error(`Dockerfile: no stage named ${copy.from}`);
        const rel = path.posix.relative(stage.workdir, copy.src);
        if (rel.startsWith('..')) throw new Error(`Dockerfile: ${copy.src} is outside stage ${copy.from}'s WORKDIR`);
        let root = ROOT;
        if (stage.name !== 'build') {
          if (!replayed.has(stage.name!)) replayed.set(stage.name!, replayStage(stage));
          root = replayed.get(stage.name!)!;
        }
        source = path.join(root, rel);
      }
      if (!existsSync(source)) throw new Error(`Dockerfile: COPY source ${copy.src} does not exist here (${source}); run make build first`);
      // A replayed stage's directory is thrown away afterwards: move its files instead of copying them.
      copyInto(source, dir, final.workdir, copy.dest, copy.from !== null && replayed.has(copy.from));
    }
  } finally {
    for (const staged of replayed.values()) rmSync(staged, { recursive: true, force: true });
  }
  return { dir, env: final.env, stage: final, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
