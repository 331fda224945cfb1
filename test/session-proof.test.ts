import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app';
import type { AppEnv } from '../api/deps';
import { SESSION_PROOF_COOKIE, sessionProofs } from '../core/auth/session-proof';
import { createSql, type Sql } from '../db/client';
import { hashToken, SESSION_COOKIE, sessionHeldBy } from '../db/sessions';
import { freePort } from '../dev/harness/processes';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';

// docs/decisions/sign-in-and-sessions.md: a short-lived signed proof beside the session cookie stands in for the Postgres lookup.
// A session row deleted behind the proof's back shows which path answered: only the proof still knows it.
describe('session proofs', () => {
  let stack: TestStack;
  let app: Hono<AppEnv>;
  beforeAll(async () => {
    stack = await startTestStack();
    app = createApp(stack.deps);
  });
  afterAll(() => stack?.close());

  const setCookie = (res: Response, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  const value = (header: string | undefined) => (header === undefined ? undefined : header.split(';')[0]!.slice(header.indexOf('=') + 1));
  const signedIn = async (on: Hono<AppEnv>, cookie: string) =>
    ((await (await on.request('/api/check-session', { headers: { cookie } })).json()) as { loggedIn: boolean }).loggedIn;
  const deleteRow = (token: string) => stack.db.sql`delete from sessions where token_hash = ${hashToken(token)}`;
  const held = (token: string, userId: number) => sessionHeldBy(stack.db.sql, token, userId);

  /** A signed-in user, their first request's proof, and both cookies as the browser then sends them. */
  async function withProof(on: Hono<AppEnv> = app) {
    const { user, token, cookie } = await createSignedInUser(stack.db.sql);
    const res = await on.request('/api/check-session', { headers: { cookie } });
    expect(await res.json()).toEqual({ loggedIn: true });
    const header = setCookie(res, SESSION_PROOF_COOKIE);
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; SameSite=Lax/);
    const proof = value(header)!;
    return { user, token, proof, both: `${cookie}; ${SESSION_PROOF_COOKIE}=${proof}`, cookie };
  }

  it('is issued after a Postgres lookup and then answers without asking Postgres', async () => {
    const s = await withProof();
    const again = await app.request('/api/check-session', { headers: { cookie: s.both } });
    expect(await again.json()).toEqual({ loggedIn: true });
    expect(setCookie(again, SESSION_PROOF_COOKIE)).toBeUndefined(); // no lookup, so no new proof
    await deleteRow(s.token);
    // The row is gone: Postgres would say signed out, the proof still says signed in (within its lifetime).
    expect(await signedIn(app, s.both)).toBe(true);
    expect(await signedIn(app, s.cookie)).toBe(false);
  });

  it('stops counting once its lifetime is over; then Postgres decides again', async () => {
    const short = createApp({
      ...stack.deps,
      config: { ...stack.config, sessionProof: { ...stack.config.sessionProof!, lifetimeMs: 1000 } },
    });
    const s = await withProof(short);
    await deleteRow(s.token);
    await until('the one-second proof to expire', async () => !(await signedIn(short, s.both)));
  });

  it('another process with the same secret accepts it after one look at the session; one with another secret refuses it', async () => {
    const s = await withProof();
    // A fresh instance is what another api process holds: it has not seen this proof's session yet.
    expect(await sessionProofs(stack.config.sessionProof!.secret).verify(s.proof, s.token, held)).toMatchObject({ id: s.user.id });
    await deleteRow(s.token);
    expect(await sessionProofs(stack.config.sessionProof!.secret).verify(s.proof, s.token, held)).toBeNull();
    const rotated = createApp({ ...stack.deps, config: { ...stack.config, sessionProof: { secret: 'x'.repeat(40), lifetimeMs: 60_000 } } });
    expect(await signedIn(rotated, s.both)).toBe(false);
  });

  it('a proof forged for another user id is refused, even signed with the right secret (docs/decisions/sign-in-and-sessions.md)', async () => {
    const victim = await createSignedInUser(stack.db.sql);
    const attacker = await createSignedInUser(stack.db.sql);
    // The built-in secret of the stand-in setup is in the code, so anyone can sign with it.
    const forger = sessionProofs(stack.config.sessionProof!.secret);
    const claim = { id: victim.user.id, email: victim.user.email, name: victim.user.name };
    const madeUp = 'made-up-session-token';
    const forged = forger.sign(claim, madeUp, Date.now() + 60_000);
    const res = await app.request('/api/timers', { headers: { cookie: `${SESSION_COOKIE}=${madeUp}; ${SESSION_PROOF_COOKIE}=${forged}` } });
    expect(res.status).toBe(401);
    // Next to the attacker's own real session, the proof naming the victim is refused and Postgres says who it is.
    const beside = forger.sign(claim, attacker.token, Date.now() + 60_000);
    const me = await app.request('/api/timers', { headers: { cookie: `${attacker.cookie}; ${SESSION_PROOF_COOKIE}=${beside}` } });
    expect(me.status).toBe(200);
    const fresh = value(setCookie(me, SESSION_PROOF_COOKIE))!;
    expect(await sessionProofs(stack.config.sessionProof!.secret).verify(fresh, attacker.token, held)).toMatchObject({
      id: attacker.user.id,
    });
  });

  it('a tampered proof falls back to Postgres: the real user, and a fresh proof', async () => {
    const s = await withProof();
    const [, signature] = s.proof.split('.');
    const forged = Buffer.from(JSON.stringify([s.user.id + 1, 'someone@example.com', 'Someone', Date.now() + 60_000])).toString(
      'base64url',
    );
    const cookie = `${s.cookie}; ${SESSION_PROOF_COOKIE}=${forged}.${signature}`;
    const res = await app.request('/api/check-session', { headers: { cookie } });
    expect(await res.json()).toEqual({ loggedIn: true });
    const fresh = value(setCookie(res, SESSION_PROOF_COOKIE))!;
    expect(await sessionProofs(stack.config.sessionProof!.secret).verify(fresh, s.token, held)).toMatchObject({ id: s.user.id });
    await deleteRow(s.token);
    expect(await signedIn(app, cookie)).toBe(false);
  });

  it('an expired proof, or one issued for another session, falls back to Postgres', async () => {
    const a = await withProof();
    const b = await withProof();
    const c = await withProof();
    await deleteRow(a.token);
    expect(await signedIn(app, `${a.cookie}; ${SESSION_PROOF_COOKIE}=${b.proof}`)).toBe(false);
    // Session c exists, so Postgres answers either way; a new proof in the reply shows the sent one was not taken.
    const proofs = sessionProofs(stack.config.sessionProof!.secret);
    const claim = { id: c.user.id, email: c.user.email, name: c.user.name };
    const ask = (proof: string) =>
      app.request('/api/check-session', { headers: { cookie: `${c.cookie}; ${SESSION_PROOF_COOKIE}=${proof}` } });
    expect(setCookie(await ask(proofs.sign(claim, c.token, Date.now() - 1)), SESSION_PROOF_COOKIE)).toBeDefined();
    // The same proof with a lifetime left is taken: the expiry alone made the difference.
    expect(setCookie(await ask(proofs.sign(claim, c.token, Date.now() + 60_000)), SESSION_PROOF_COOKIE)).toBeUndefined();
  });

  it('a proof never outlives its session: it ends when the session does, if sooner', async () => {
    const { token, cookie } = await createSignedInUser(stack.db.sql);
    await stack.db
      .sql`update sessions set expires_at = now() + interval '2 seconds', created_at = now() - interval '30 days' + interval '2 seconds'
                       where token_hash = ${hashToken(token)}`;
    const res = await app.request('/api/check-session', { headers: { cookie } });
    const header = setCookie(res, SESSION_PROOF_COOKIE)!;
    expect(Number(/Max-Age=(\d+)/.exec(header)![1])).toBeLessThanOrEqual(2);
  });

  it('logout clears both cookies', async () => {
    const s = await withProof();
    const out = await app.request('/api/logout', { headers: { cookie: s.both } });
    expect(out.status).toBe(200);
    for (const name of [SESSION_COOKIE, SESSION_PROOF_COOKIE]) expect(setCookie(out, name)).toMatch(/Max-Age=0/);
    expect(await signedIn(app, s.cookie)).toBe(false);
  });

  it('sign-in sets the first proof with the session cookie', async () => {
    const token = await stack.standins.google.mintToken({ email: `proof-${Date.now()}@example.com` });
    const res = await app.request('/api/auth/google', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(res.status).toBe(200);
    const session = value(setCookie(res, SESSION_COOKIE))!;
    const proof = value(setCookie(res, SESSION_PROOF_COOKIE))!;
    expect(await sessionProofs(stack.config.sessionProof!.secret).verify(proof, session, held)).toMatchObject({
      email: expect.stringMatching(/^proof-/),
    });
  });

  it('with proofs off (SESSION_PROOF_SECONDS=0) none is issued and every request asks Postgres', async () => {
    const off = createApp({ ...stack.deps, config: { ...stack.config, sessionProof: null } });
    const s = await withProof();
    const res = await off.request('/api/check-session', { headers: { cookie: s.cookie } });
    expect(setCookie(res, SESSION_PROOF_COOKIE)).toBeUndefined();
    await deleteRow(s.token);
    expect(await signedIn(off, s.both)).toBe(false);
  });

  describe('with Postgres down', () => {
    let sql: Sql;
    let down: Hono<AppEnv>;
    beforeAll(async () => {
      sql = createSql(`postgres://postgres@127.0.0.1:${await freePort()}/eventfinder`);
      down = createApp({ ...stack.deps, sql });
    });
    afterAll(() => sql.end({ timeout: 1 }));

    it('a valid proof still says who is signed in; routes that need Postgres answer 503', async () => {
      const s = await withProof();
      expect(await signedIn(down, s.both)).toBe(true);
      expect((await down.request('/api/timers', { headers: { cookie: s.both } })).status).toBe(503);
      // Without a proof the session lookup itself needs Postgres.
      expect((await down.request('/api/check-session', { headers: { cookie: s.cookie } })).status).toBe(503);
    });
  });
});
