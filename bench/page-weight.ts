import { gzipSync } from 'node:zlib';
import { createApp } from '../api/app';
import { launchBrowser } from '../dev/harness/browser';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { percentile, type BenchResult, type Row } from './lib/report';
import { withSessionProof } from '../dev/harness/session-proof-cookie';

const RENDERS = 300;

/** Gzipped bytes of the JavaScript a page links (module scripts and their preloaded chunks). */
async function scriptBytes(stack: TestStack, html: string): Promise<{ total: number; perIsland: Record<string, number> }> {
  const manifest = JSON.parse(await (await import('node:fs/promises')).readFile('dist/public/manifest.json', 'utf8')) as {
    islands: Record<string, { file: string; imports: string[] }>;
  };
  const sizeOf = async (file: string) => gzipSync(Buffer.from(await (await fetch(stack.url + file)).arrayBuffer())).length;
  const linked = [...html.matchAll(/<(?:script type="module" src|link rel="modulepreload" href)="([^"]+)"/g)].map((m) => m[1]!);
  let total = 0;
  for (const file of new Set(linked)) total += await sizeOf(file);
  const perIsland: Record<string, number> = {};
  for (const [name, entry] of Object.entries(manifest.islands)) {
    if (linked.includes(entry.file)) perIsland[name] = await sizeOf(entry.file);
  }
  return { total, perIsland };
}

async function renderTimes(stack: TestStack, sessionCookie?: string): Promise<number[]> {
  const app = createApp(stack.deps);
  const times: number[] = [];
  // Signed in, what a browser sends: the session cookie and the proof the first reply set (docs/decisions/sign-in-and-sessions.md).
  const cookie =
    sessionCookie && (withSessionProof(sessionCookie, await app.request('/', { headers: { cookie: sessionCookie } })) ?? sessionCookie);
  for (let i = 0; i < RENDERS; i++) {
    const start = performance.now();
    const res = await app.request('/', { headers: cookie ? { cookie } : {} });
    await res.text();
    times.push(performance.now() - start);
  }
  return times;
}

async function baselineTimes(stack: TestStack): Promise<number[]> {
  const app = createApp(stack.deps);
  const times: number[] = [];
  for (let i = 0; i < RENDERS; i++) {
    const start = performance.now();
    await (await app.request('/healthz')).text();
    times.push(performance.now() - start);
  }
  return times;
}

async function lcp(url: string, cookie?: { name: string; value: string }): Promise<number> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext();
    if (cookie) await context.addCookies([{ ...cookie, url }]);
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    return await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => {
            const entries = list.getEntries();
            resolve(entries[entries.length - 1]!.startTime);
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        }),
    );
  } finally {
    await browser.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const stack = await startTestStack();
  try {
    const { token, cookie } = await createSignedInUser(stack.db.sql);
    const out = await (await fetch(`${stack.url}/`)).text();
    const signedIn = await (await fetch(`${stack.url}/`, { headers: { cookie } })).text();
    const outJs = await scriptBytes(stack, out);
    const inJs = await scriptBytes(stack, signedIn);
    // Warm up before timing renders.
    await renderTimes(stack);
    const [outTimes, inTimes, base] = [await renderTimes(stack), await renderTimes(stack, cookie), await baselineTimes(stack)];
    const rows: Row[] = [
      { metric: 'JS shipped, signed out (gzip)', value: outJs.total, unit: 'B' },
      ...Object.entries(outJs.perIsland).map(([n, v]) => ({ metric: `  island ${n}, signed out (gzip)`, value: v, unit: 'B' })),
      { metric: 'JS shipped, signed in (gzip)', value: inJs.total, unit: 'B' },
      ...Object.entries(inJs.perIsland).map(([n, v]) => ({ metric: `  island ${n}, signed in (gzip)`, value: v, unit: 'B' })),
      { metric: 'HTML of /, signed out (gzip)', value: gzipSync(out).length, unit: 'B' },
      { metric: 'server render of /, signed out, p50', value: percentile(outTimes, 50), unit: 'ms', baseline: percentile(base, 50) },
      { metric: 'server render of /, signed in, p50', value: percentile(inTimes, 50), unit: 'ms', baseline: percentile(base, 50) },
      { metric: 'server render of /, signed in, p99', value: percentile(inTimes, 99), unit: 'ms', baseline: percentile(base, 99) },
      { metric: 'Largest Contentful Paint, signed out', value: await lcp(`${stack.url}/`), unit: 'ms' },
      {
        metric: 'Largest Contentful Paint, signed in',
        value: await lcp(`${stack.url}/`, { name: 'ef_session', value: token }),
        unit: 'ms',
      },
    ];
    return [
      {
        name: 'page',
        method: `Bytes: the module scripts and preloaded chunks that / links, gzipped. Render: ${RENDERS} in-process app.request('/') after a warm-up; baseline is GET /healthz through the same middleware. LCP: headless Chromium on localhost, PerformanceObserver.`,
        rows,
      },
    ];
  } finally {
    await stack.close();
  }
}
