import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, hashToken, SESSION_COOKIE } from '../db/sessions';
import { startFleet, type Fleet, untilApisHearRevocations } from '../dev/harness/fleet';
import { withSessionProof } from '../dev/harness/session-proof-cookie';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';

// docs/decisions/sign-in-and-sessions.md: a copied pair of cookies (session + proof), as a thief holds it, stops working on every api
// process as soon as the session ends, not when the proof would have expired (60 s here).
describe('revoking a session on two api processes', () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet({ apis: 2, workers: 0 });
    // Both processes subscribed: from here on each trusts the proofs it remembers.
    await untilApisHearRevocations(fleet);
  }, 240_000); // two api processes loaded through tsx, one after the other, on a shared machine
  afterAll(async () => {
    await fleet?.close();
  });

  const call = (api: number, cookie: string, method = 'GET', path = '/api/account/export', body?: unknown) =>
    fetch(`${fleet.apis[api]!.url}${path}`, {
      method,
      headers: { cookie, origin: fleet.appUrl, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  /** A signed-in user's copied cookie pair, already remembered by both processes (each answered it once). */
  async function copiedPair(userId?: number) {
    const { cookie, user } = userId
      ? { cookie: `${SESSION_COOKIE}=${(await createSession(fleet.db.sql, userId)).token}`, user: { id: userId } }
      : await createSignedInUser(fleet.db.sql);
    const first = await call(0, cookie, 'GET', '/api/check-session');
    const pair = withSessionProof(cookie, first)!;
    for (const api of [0, 1]) expect((await call(api, pair)).status).toBe(200);
    for (const api of [0, 1]) expect(await (await call(api, pair, 'GET', '/api/check-session')).json()).toEqual({ loggedIn: true });
    // Each process now answers the pair from memory: a row deleted behind its back does not show (docs/decisions/sign-in-and-sessions.md).
    return { pair, user };
  }

  const refusedOnBoth = async (pair: string) => {
    // Process 0 ended the session itself: refused on the very next request; process 1 within a second.
    expect((await call(0, pair)).status).toBe(401);
    await until('the other process to refuse the copied pair', async () => (await call(1, pair)).status === 401, 1000);
    // The page's check-session, which a process answers from the proofs it holds, holds it no more either.
    for (const api of [0, 1]) expect(await (await call(api, pair, 'GET', '/api/check-session')).json()).toEqual({ loggedIn: false });
  };

  it('a sign-out ends the copied pair on both processes', async () => {
    const { pair } = await copiedPair();
    const out = await call(0, pair, 'GET', '/api/logout');
    expect(await out.json()).toEqual({ message: 'You are now logged out.' });
    await refusedOnBoth(pair);
    for (const api of [0, 1]) {
      expect(await (await call(api, pair, 'GET', '/api/check-session')).json()).toEqual({ loggedIn: false });
    }
  });

  it('deleting the account ends the copied pair on both processes, and its writes answer 401, not 500', async () => {
    const { pair, user } = await copiedPair();
    // A second browser of the same user.
    const other = await copiedPair(user.id);
    const deleted = await call(1, pair, 'DELETE', '/api/account');
    expect(deleted.status).toBe(200);
    await refusedOnBothFrom(1, pair);
    await refusedOnBothFrom(1, other.pair);
    for (const api of [0, 1]) {
      const write = await call(api, pair, 'POST', '/api/schedule', {
        scheduleType: 'daily',
        time: '09:00',
        weekday: '',
        ques: 'Jazz in Lisbon',
        web: '',
        timezone: 'UTC',
      });
      expect(write.status).toBe(401);
    }
  });

  /** The operator's command, run as an operator runs it, with the fleet's environment. */
  const endSessionsCli = (...args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'cli/end-sessions.ts', ...args], {
      env: { ...process.env, ...fleet.env },
    }).then(
      ({ stdout }) => ({ code: 0, out: stdout.trim() }),
      (err: { code: number; stderr: string }) => ({ code: err.code, out: err.stderr.trim() }),
    );

  /** Neither process ended it: both hear it from Redis, within a second. */
  const refusedOnBothByOthers = async (pair: string) => {
    for (const api of [0, 1]) {
      await until(`api ${api} to refuse the copied pair`, async () => (await call(api, pair)).status === 401, 1000);
    }
  };

  it("an operator's end-sessions --user ends every session of that user on both processes, and no one else's", async () => {
    const { pair, user } = await copiedPair();
    const second = await copiedPair(user.id);
    const bystander = await copiedPair();
    const [row] = await fleet.db.sql<{ email: string }[]>`select email from users where id = ${user.id}`;
    expect(await endSessionsCli('--user', row!.email.toUpperCase())).toEqual({ code: 0, out: 'Ended 2 sessions on every api process.' });
    await refusedOnBothByOthers(pair);
    await refusedOnBothByOthers(second.pair);
    for (const api of [0, 1]) expect((await call(api, bystander.pair)).status).toBe(200);
    expect(await endSessionsCli('--user', String(bystander.user.id))).toEqual({ code: 0, out: 'Ended 1 session on every api process.' });
    await refusedOnBothByOthers(bystander.pair);
  });

  it("an operator's end-sessions --session ends that one session and leaves the user's others", async () => {
    const { user } = await copiedPair();
    const target = await copiedPair(user.id);
    const kept = await copiedPair(user.id);
    const tokenHash = hashToken(target.pair.split(';')[0]!.slice(`${SESSION_COOKIE}=`.length));
    expect(await endSessionsCli('--session', tokenHash)).toEqual({ code: 0, out: 'Ended 1 session on every api process.' });
    await refusedOnBothByOthers(target.pair);
    for (const api of [0, 1]) expect((await call(api, kept.pair)).status).toBe(200);
    expect(await endSessionsCli('--session', tokenHash)).toEqual({ code: 0, out: 'No session matched: nothing was ended.' });
  });

  it('end-sessions refuses arguments it cannot read with a sentence, ending nothing', async () => {
    const { pair } = await copiedPair();
    const wrong = await endSessionsCli('--user', 'nobody');
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/^--user takes an email address or a numeric user id, not "nobody"\./);
    expect((await endSessionsCli('--session', 'abc')).out).toMatch(/^--session takes a session's token_hash \(64 hex digits\)\./);
    expect((await endSessionsCli()).code).toBe(1);
    for (const api of [0, 1]) expect((await call(api, pair)).status).toBe(200);
    for (const api of [0, 1]) expect(await (await call(api, pair, 'GET', '/api/check-session')).json()).toEqual({ loggedIn: true });
  });

  /** As refusedOnBoth, when process `from` ended the session. */
  async function refusedOnBothFrom(from: number, pair: string) {
    expect((await call(from, pair)).status).toBe(401);
    await until('the other process to refuse the copied pair', async () => (await call(1 - from, pair)).status === 401, 1000);
  }
});
