import { cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { ISLAND_NAMES } from './island-registry';

/** Written beside the assets; the server reads it to link the islands a page renders. */
export interface Manifest {
  islands: Record<string, { file: string; imports: string[] }>;
  css: string;
}

export interface BuildOptions {
  outdir?: string;
  watch?: boolean;
  quiet?: boolean;
  /** Also bundle the server entries (api, worker, migrate, end-sessions, the reading thread) into dist/server and the stand-ins into dist/standins. */
  server?: boolean;
  /** Remove earlier assets first (default). Test runs keep them: a parallel run may be serving them. */
  clean?: boolean;
}

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const ENTRY_NS = 'island-entry';

// Each island gets a tiny generated entry that hydrates only that island, so a page loads only its islands.
const islandEntries: esbuild.Plugin = {
  name: 'island-entries',
  setup(build) {
    build.onResolve({ filter: /^island:/ }, (args) => ({ path: args.path.slice(7), namespace: ENTRY_NS }));
    build.onLoad({ filter: /.*/, namespace: ENTRY_NS }, (args) => ({
      contents: `import Island from './islands/${args.path}';\nimport { hydrateIslands } from './client/hydrate';\nhydrateIslands(${JSON.stringify(args.path)}, Island);\n`,
      resolveDir: path.join(ROOT, 'web'),
      loader: 'tsx',
    }));
  },
};

function manifestFrom(meta: esbuild.Metafile, outdir: string): Manifest {
  const manifest: Manifest = { islands: {}, css: '' };
  const rel = (p: string) => `/assets/${path.relative(outdir, path.resolve(ROOT, p)).split(path.sep).join('/')}`;
  for (const [out, info] of Object.entries(meta.outputs)) {
    if (info.entryPoint?.startsWith(`${ENTRY_NS}:`)) {
      const name = info.entryPoint.slice(ENTRY_NS.length + 1);
      const imports = info.imports.filter((i) => i.kind === 'import-statement').map((i) => rel(i.path));
      manifest.islands[name] = { file: rel(out), imports };
    } else if (out.endsWith('.css') && info.entryPoint) {
      manifest.css = rel(out);
    }
  }
  return manifest;
}

/**
 * Bundles the browser islands (hashed, split, with a manifest) and optionally the server entries. Watching, it
 * resolves once the first build is under way and gives back how to stop: the watch and esbuild's own service
 * process, which would otherwise outlive a caller that exits.
 */
export async function buildWeb(options: BuildOptions = {}): Promise<{ stop: () => Promise<void> }> {
  const outdir = path.resolve(ROOT, options.outdir ?? 'dist/public');
  const assets = path.join(outdir, 'assets');
  if (!options.watch && options.clean !== false) await rm(assets, { recursive: true, force: true });
  await mkdir(assets, { recursive: true });
  const writeManifest: esbuild.Plugin = {
    name: 'manifest',
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length || !result.metafile) return;
        const manifest = manifestFrom(result.metafile, assets);
        // Write then rename, so a server reading the manifest never sees half a file.
        const tmp = path.join(outdir, `manifest.${process.pid}.tmp`);
        await writeFile(tmp, JSON.stringify(manifest, null, 2));
        await rename(tmp, path.join(outdir, 'manifest.json'));
        if (!options.quiet) console.log(`web: built ${Object.keys(manifest.islands).length} islands`);
      });
    },
  };
  const browser: esbuild.BuildOptions = {
    entryPoints: [...ISLAND_NAMES.map((n) => `island:${n}`), path.join(ROOT, 'web/styles.css')],
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: assets,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    minify: true,
    sourcemap: 'linked',
    metafile: true,
    target: ['es2022'],
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: options.quiet ? 'error' : 'warning',
    plugins: [islandEntries, writeManifest],
  };
  if (options.watch) {
    const ctx = await esbuild.context(browser);
    await ctx.watch();
    return {
      stop: async () => {
        await ctx.dispose();
        await esbuild.stop();
      },
    };
  }
  await esbuild.build(browser);
  if (options.server) await buildServer();
  return { stop: async () => {} };
}

/** Server entries keep node_modules external: Bull Board, for one, finds its UI files on disk at run time. */
async function buildServer(): Promise<void> {
  await esbuild.build({
    entryPoints: {
      api: path.join(ROOT, 'api/main.ts'),
      worker: path.join(ROOT, 'worker/main.ts'),
      migrate: path.join(ROOT, 'cli/migrate.ts'),
      'end-sessions': path.join(ROOT, 'cli/end-sessions.ts'),
      // The reading pool's thread (core/reading/pool.ts finds it beside api.js and worker.js).
      'reading-thread': path.join(ROOT, 'core/reading/thread.ts'),
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    jsx: 'automatic',
    outdir: path.join(ROOT, 'dist/server'),
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  // The Redis scripts are read by name at run time (core/redis/script.ts), from a folder beside the bundle.
  await cp(path.join(ROOT, 'core/redis/lua'), path.join(ROOT, 'dist/server/lua'), { recursive: true });
  await buildStandins();
}

/**
 * The local stand-ins as a process of their own (compose.yaml's `standins` service). They read files beside
 * their modules at run time (the sign-in script, the sample websites), so every file of dev/standins that is
 * not TypeScript is copied beside the bundle, where the same relative URLs find it.
 */
async function buildStandins(): Promise<void> {
  const source = path.join(ROOT, 'dev/standins');
  const outdir = path.join(ROOT, 'dist/standins');
  await rm(outdir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: { main: path.join(source, 'main.ts') },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    outdir,
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  await cp(source, outdir, { recursive: true, filter: (src) => !/\.tsx?$/.test(src) });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const watch = process.argv.includes('--watch');
  buildWeb({ watch, server: !watch }).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
