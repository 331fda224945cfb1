import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/support/db';
import { createSignedInUser } from '../test/support/users';
import { deleteSession, hashToken, validateSession } from './sessions';

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

  it('slides the expiry forward once half the lifetime has passed', async () => {
    const { token } = await createSignedInUser(db.sql);
    await db.sql`update sessions set expires_at = now() + interval '2 days' where token_hash = ${hashToken(token)}`;
    const check = await validateSession(db.sql, token);
    expect(check.valid && check.renewed).toBe(true);
    const [row] = await db.sql<{ expires_at: Date }[]>`select expires_at from sessions where token_hash = ${hashToken(token)}`;
    expect(row!.expires_at.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
  });
});
