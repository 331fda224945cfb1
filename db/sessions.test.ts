import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../dev/harness/db';
import { createSignedInUser } from '../dev/harness/users';
import { deleteExpiredSessions, deleteSession, hashToken, SESSION_IDLE_MS, validateSession } from './sessions';

describe('sessions', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('stores only a hash of the token and validates the token', async () => {
    const { user, token } = await createSignedInUser(db.sql);
    const rows = await db.sql`select token_hash from sessions where user_id = ${user.id}`;
    expect(rows[0]!.token_hash).toBe(hashToken(token));
    expect(rows[0]!.token_hash).not.toContain(token);
    const check = await validateSession(db.sql, token);
    expect(check).toMatchObject({ valid: true, user: { id: user.id } });
  });

  it('refuses unknown, expired and deleted sessions', async () => {
    const { token } = await createSignedInUser(db.sql);
    expect((await validateSession(db.sql, 'nope')).valid).toBe(false);
    await db.sql`update sessions set expires_at = now() - interval '1 second' where token_hash = ${hashToken(token)}`;
    expect((await validateSession(db.sql, token)).valid).toBe(false);
    const other = await createSignedInUser(db.sql);
    await deleteSession(db.sql, other.token);
    expect((await validateSession(db.sql, other.token)).valid).toBe(false);
  });

  const expiresAt = async (token: string) =>
    (await db.sql<{ expires_at: Date }[]>`select expires_at from sessions where token_hash = ${hashToken(token)}`)[0]!.expires_at.getTime();

  it('slides the expiry forward once half the idle time has passed', async () => {
    const { token } = await createSignedInUser(db.sql);
    await db.sql`update sessions set expires_at = now() + interval '2 days' where token_hash = ${hashToken(token)}`;
    const check = await validateSession(db.sql, token);
    expect(check.valid && check.renewed).toBe(true);
    expect(await expiresAt(token)).toBeGreaterThan(Date.now() + SESSION_IDLE_MS - 60_000);
  });

  it('ends a session 30 days after sign-in however active it is', async () => {
    const { token } = await createSignedInUser(db.sql);
    // Signed in 25 days ago, used yesterday: sliding stops at the 30-day mark, not 14 days from now.
    await db.sql`update sessions set created_at = now() - interval '25 days', expires_at = now() + interval '1 day'
                 where token_hash = ${hashToken(token)}`;
    const check = await validateSession(db.sql, token);
    expect(check.valid && check.renewed).toBe(true);
    const fiveDays = Date.now() + 5 * 24 * 3600 * 1000;
    expect(Math.abs((await expiresAt(token)) - fiveDays)).toBeLessThan(60_000);
    if (check.valid) expect(Math.abs(check.expiresAt.getTime() - fiveDays)).toBeLessThan(60_000);

    // Past 30 days it is refused even if its row still says it has time left (written before the rule).
    await db.sql`update sessions set created_at = now() - interval '31 days', expires_at = now() + interval '10 days'
                 where token_hash = ${hashToken(token)}`;
    expect((await validateSession(db.sql, token)).valid).toBe(false);
  });

  it('deletes ended sessions and keeps live ones', async () => {
    const ended = await createSignedInUser(db.sql);
    const live = await createSignedInUser(db.sql);
    await db.sql`update sessions set expires_at = now() - interval '1 minute' where token_hash = ${hashToken(ended.token)}`;
    expect(await deleteExpiredSessions(db.sql)).toBeGreaterThanOrEqual(1);
    expect(await db.sql`select 1 from sessions where token_hash = ${hashToken(ended.token)}`).toHaveLength(0);
    expect((await validateSession(db.sql, live.token)).valid).toBe(true);
  });
});
