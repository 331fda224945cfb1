import autocannon from 'autocannon';
import { build } from 'esbuild';
import { freePort, startChild, type ChildServer } from '../../dev/harness/processes';
import { procTreeCpuMs } from './proc-cpu';

/** User plus system CPU time of a server so far, its cluster processes included, in microseconds (Linux). */
const cpuMicros = (pid: number) => procTreeCpuMs(pid) * 1000;

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  /** The server's CPU time per request meanwhile, in µs. */
  cpu: number;
}

/** Throughput and latency of one route under autocannon, and the CPU time the server spent per request meanwhile. */
export async function load(
  server: ChildServer,
  path: string,
  options: { cookie?: string; duration: number; connections: number },
): Promise<Load> {
  const before = cpuMicros(server.pid);
  const result = await autocannon({
    url: `${server.url}${path}`,
    connections: options.connections,
    duration: options.duration,
    headers: options.cookie ? { cookie: options.cookie } : {},
  });
  if (result.non2xx > 0) throw new Error(`${path}: ${result.non2xx} non-2xx answers`);
  const cpuPerRequest = (cpuMicros(server.pid) - before) / result.requests.total;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpu: cpuPerRequest };
}

/**
 * A bench-only server (bench/<entry>.ts or bench/lib/<entry>.ts) bundled like the api (its packages left as
 * imports) and started in its own process on a free port, so it starts and runs as the built api does.
 */
export async function startBuilt(
  entry: string,
  env: Record<string, string> = {},
  readyPath?: string,
  nodeArgs: string[] = [],
): Promise<ChildServer> {
  const name = entry
    .replace(/^bench\//, '')
    .replace(/\.ts$/, '')
    .replaceAll('/', '-');
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: `dist/bench/${name}.js`,
    logLevel: 'error',
  });
  const port = await freePort();
  return startChild([...nodeArgs, `dist/bench/${name}.js`, String(port)], env, { port, ...(readyPath ? { readyPath } : {}) });
}
