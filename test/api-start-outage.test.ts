import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../db/sessions';
import { testBaseEnv } from '../dev/harness/base-env';
import { createTestDatabase, type TestDatabase } from '../dev/harness/db';
import { freePort } from '../dev/harness/processes';
import { testQueuePrefix } from '../dev/harness/redis';

/**
 * Resolves when the api logs that it listens (the line a start writes once its server is bound); rejects when it
 * exits first. Postgres or Redis never comes up meanwhile, so the line shows the api does not wait for them; how
 * soon it comes is the benchmark's (`make bench ONLY=outage-start`).
 */
function listening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('"msg":"listening on ')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the api exited (${code}) before it listened`)));
  });
}

// The built api started while Postgres or Redis cannot be reached (its URL points at a loopback port nobody
// listens on): it listens at once, says it is alive, says which service it is missing, and serves the page's
// error page, instead of waiting for the service while the orchestrator's probes find nothing listening.
describe('the built api started while a service it needs is down', () => {
  let db: TestDatabase;
  let closedPort: number;
  const started: ChildProcess[] = [];
  beforeAll(async () => {
    db = await createTestDatabase();
    closedPort = await freePort();
  });
  afterAll(async () => {
    for (const child of started) child.kill('SIGKILL');
    await db?.drop();
  });

  async function startApi(missing: 'postgres' | 'redis') {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const nowhere = `127.0.0.1:${closedPort}`;
    const { API_PROCESSES: _asConfigured, ...base } = testBaseEnv({
      appUrl: url,
      databaseUrl: missing === 'postgres' ? `postgres://postgres@${nowhere}/eventfinder` : db.url,
      queuePrefix: testQueuePrefix(),
      // Nothing outside is needed for these answers: the stand-ins' address is a closed port too.
      standins: { url: `http://${nowhere}`, port: closedPort, smtpUrl: `smtp://${nowhere}` },
    });
    // The api's own default for how many processes it runs (API_PROCESSES unset), as a container starts it.
    const env = {
      ...base,
      ...(missing === 'redis' ? { REDIS_URL: `redis://${nowhere}` } : {}),
      PORT: String(port),
      LOG_LEVEL: 'info',
    };
    const child = spawn(process.execPath, ['dist/server/api.js'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    started.push(child);
    await listening(child);
    return { url, child };
  }

  for (const missing of ['postgres', 'redis'] as const) {
    it(`with ${missing} down: live at once, not ready naming ${missing}, and the page answers`, async () => {
      const api = await startApi(missing);
      expect((await fetch(`${api.url}/healthz`)).status).toBe(200);
      expect(api.child.exitCode).toBeNull();

      const ready = await fetch(`${api.url}/readyz`);
      expect(ready.status).toBe(503);
      const body = (await ready.json()) as { status: string; failed: string[]; error: string };
      expect(body.status).toBe('unavailable');
      expect(body.failed).toEqual([expect.stringMatching(new RegExp(`^${missing}: `))]);
      expect(body.error).toMatch(new RegExp(`^Not ready: ${missing} cannot be reached\\.`));

      // A signed-in visitor (the session needs Postgres to be checked) opening the page.
      const page = await fetch(`${api.url}/`, { headers: { cookie: `${SESSION_COOKIE}=a-session-token`, accept: 'text/html' } });
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toMatch(/^<!doctype html>/i);
      if (missing === 'postgres') {
        expect(page.status).toBe(503);
        expect(html).toContain('cannot reach its database right now. Please try again in a minute.');
      } else {
        // The page needs no Redis: it is served as usual, to a visitor whose (unknown) session is simply not signed in.
        expect(page.status).toBe(200);
        expect(html).toContain('Choose Your Plan');
      }
      expect((await fetch(`${api.url}/healthz`)).status).toBe(200);
    }, 90_000);
  }
});
