import { randomBytes } from 'node:crypto';
import type { Sql } from '../../db/client';
import { createSession, SESSION_COOKIE } from '../../db/sessions';
import { upsertUserFromGoogle, type User } from '../../db/users';

/** A signed-in user made through the same functions sign-in uses; returns the Cookie header value. */
export async function createSignedInUser(
  sql: Sql,
  overrides: { email?: string; name?: string } = {},
): Promise<{ user: User; cookie: string; token: string }> {
  const sub = `test-${randomBytes(6).toString('hex')}`;
  const user = await upsertUserFromGoogle(sql, {
    sub,
    email: overrides.email ?? `${sub}@example.com`,
    name: overrides.name ?? 'Test User',
  });
  const { token } = await createSession(sql, user.id);
  return { user, token, cookie: `${SESSION_COOKIE}=${token}` };
}
