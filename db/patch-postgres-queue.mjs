// Run by `npm install` / `npm ci` (package.json postinstall), so plain Node with no dependencies: the image's
// production install runs it before any dev dependency exists.
//
// postgres.js 3.4.9 keeps its pool's connections in FIFO queues whose `shift` leaves a hole at the front and
// only clears the holes when a shift empties the queue. A pool with idle connections never empties its `open`
// queue, and a saturated one never empties `busy`, so each query adds a hole for good, and moving a connection
// between queues (`remove`, an indexOf over every slot) costs more with every query the process has served:
// a slow leak of memory and CPU (decision 028). This replaces the queue with the same FIFO whose `remove`
// skips the holes and whose backing array is compacted once holes are half of it. Any other content of the
// file (another postgres.js version) is left alone with a warning, so an upgrade never breaks an install.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MARKER = 'event-finder: bounded queue (decision 028)';

const QUEUE_BODY = `function Queue(initial = []) {
  let xs = initial.slice()
  let index = 0

  return {
    get length() {
      return xs.length - index
    },
    // Slots in the backing array, holes included: bounded by twice the length, plus a little.
    get slots() {
      return xs.length
    },
    remove: (x) => {
      const at = xs.indexOf(x, index)
      return at === -1
        ? null
        : (xs.splice(at, 1), x)
    },
    push: (x) => (xs.push(x), x),
    shift: () => {
      const out = xs[index++]

      if (index === xs.length) {
        index = 0
        xs = []
      } else {
        xs[index - 1] = undefined
        if (index >= 64 && index * 2 >= xs.length) {
          xs = xs.slice(index)
          index = 0
        }
      }

      return out
    }
  }
}
`;

export const POSTGRES_3_4_9_QUEUE = `function Queue(initial = []) {
  let xs = initial.slice()
  let index = 0

  return {
    get length() {
      return xs.length - index
    },
    remove: (x) => {
      const index = xs.indexOf(x)
      return index === -1
        ? null
        : (xs.splice(index, 1), x)
    },
    push: (x) => (xs.push(x), x),
    shift: () => {
      const out = xs[index++]

      if (index === xs.length) {
        index = 0
        xs = []
      } else {
        xs[index - 1] = undefined
      }

      return out
    }
  }
}
`;

/** The queue modules of each build postgres.js ships (ESM, CommonJS, Cloudflare), with their export line. */
const BUILDS = [
  ['src/queue.js', 'export default Queue'],
  ['cjs/src/queue.js', 'module.exports = Queue'],
  ['cf/src/queue.js', 'export default Queue'],
];

/** Patches the queue modules under `packageDir`; returns what happened to each. */
export function patchPostgresQueue(packageDir) {
  return BUILDS.map(([file, exportLine]) => {
    const target = path.join(packageDir, file);
    let text;
    try {
      text = readFileSync(target, 'utf8');
    } catch {
      return { file, outcome: 'missing' };
    }
    if (text.includes(MARKER)) return { file, outcome: 'already patched' };
    if (text !== `${exportLine}\n\n${POSTGRES_3_4_9_QUEUE}`) return { file, outcome: 'unknown content' };
    writeFileSync(target, `${exportLine}\n\n// ${MARKER}\n${QUEUE_BODY}`);
    return { file, outcome: 'patched' };
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const results = patchPostgresQueue(path.join(root, 'node_modules/postgres'));
  const unknown = results.filter((r) => r.outcome === 'unknown content');
  if (unknown.length) {
    console.warn(
      `db/patch-postgres-queue.mjs: postgres.js's ${unknown.map((r) => r.file).join(', ')} is not the 3.4.9 queue it fixes, so it was left as is. Check whether the new version still leaks (decision 028) and update or remove this script.`,
    );
  }
}
