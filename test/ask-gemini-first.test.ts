import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app';
import { openPool } from '../db/client';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';

/**
 * An admitted ask asks Gemini before it waits on Postgres: the admission is one Redis script (rate, slot and the
 * credit hint), and the search's record and credit are one statement sent while Gemini is already asked.
 */
describe('the Gemini request of an ask leaves before any Postgres query of its own', () => {
  let stack: TestStack;
  let url: string;
  let server: ReturnType<typeof createAdaptorServer>;
  const queries: string[] = [];
  let watched: postgres.Sql;
  beforeAll(async () => {
    stack = await startTestStack({ searchEvents: false });
    // The same app over a pool that notes every query it sends (postgres.js's debug hook), on a port of its own.
    watched = postgres(stack.db.url, {
      max: 4,
      onnotice: () => {},
      transform: { undefined: null },
      debug: (_c, query) => queries.push(query),
    });
    await openPool(watched as never, 4);
    const app = createApp({ ...stack.deps, sql: watched as never });
    server = createAdaptorServer({ fetch: (req: Request, env: unknown) => app.fetch(req, env as object) });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  /** POST /api/ask to the watched app, from the page's origin (the stack's address, as configured). */
  const ask = (_url: string, cookie: string, body: unknown) =>
    fetch(`${url}/api/ask`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: stack.url },
      body: JSON.stringify(body),
    });
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await watched?.end();
    await stack?.close();
  });

  it('asks Gemini while the accounts table is locked: only the record-and-credit statement waits for it', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    stack.standins.gemini.holdAnswers();
    // Every query that reads or writes an account waits while this transaction holds the table.
    let unlock!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const tx = stack.db.sql.begin(async (t) => {
      await t`lock table accounts in access exclusive mode`;
      locked();
      await new Promise<void>((resolve) => (unlock = resolve));
    });
    await isLocked;
    const before = queries.length;
    const reply = ask(url, cookie, { ques: 'AI conferences in Berlin', web: '' });
    await until('the answer request to reach Gemini', () => stack.standins.gemini.held.length === 1).finally(() => {
      // Whatever happened, the lock must not outlive the wait (the stack's own queries need the table).
      if (stack.standins.gemini.held.length !== 1) unlock();
    });
    // What the ask sent to Postgres by then: the session's lookup (before admission), and the one statement that
    // records the search and takes its credit, still waiting on the lock. No credit check came before Gemini.
    const sent = queries.slice(before).filter((q) => !/\bfrom sessions\b/.test(q));
    unlock();
    await tx;
    expect(sent.length).toBeLessThanOrEqual(1);
    for (const q of sent) expect(q).toMatch(/update accounts set searches_used[\s\S]*insert into searches/);
    stack.standins.gemini.held[0]!.release();
    const res = await reply;
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('AI Summit Berlin');
    stack.standins.gemini.holdAnswers(false);
  });

  it('a user refused for want of searches is marked in Redis, and only their next ask checks the credit first', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    await stack.db.sql`update accounts set searches_used = 1000 where user_id = ${user.id}`;
    const requests = stack.standins.gemini.state.requests;
    // Unmarked: Gemini is asked while the credit is taken, and the request is dropped when the take is refused.
    const first = await ask(url, cookie, { ques: 'AI conferences in Berlin', web: '' });
    expect(first.status).toBe(402);
    await first.text();
    const key = `${stack.config.queuePrefix}:out-of-credit:${user.id}`;
    await until('the out-of-credit mark', async () => (await stack.redis.exists(key)) === 1);
    const asked = stack.standins.gemini.state.requests - requests;
    expect(asked).toBeLessThanOrEqual(1);
    // Marked: the credit is checked before Gemini, which is not asked at all.
    const second = await ask(url, cookie, { ques: 'AI conferences in Berlin', web: '' });
    expect(second.status).toBe(402);
    await second.text();
    expect(stack.standins.gemini.state.requests - requests).toBe(asked);
    // A credit again (an upgrade, a new month): the mark only costs the head start, and the answer clears it.
    await stack.db.sql`update accounts set searches_used = 0 where user_id = ${user.id}`;
    const third = await ask(url, cookie, { ques: 'AI conferences in Berlin', web: '' });
    expect(third.status).toBe(200);
    await third.text();
    await until('the mark to be cleared', async () => (await stack.redis.exists(key)) === 0);
  });
});
