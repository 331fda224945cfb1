import type { ApiTokenScope } from '../core/contract/api-tokens';
import type { Db } from './client';
import type { SessionUser } from './sessions';

export interface ApiToken {
  id: number;
  name: string;
  hint: string;
  scopes: ApiTokenScope[];
  createdAt: Date;
  lastUsedAt: Date | null;
}

type Row = { id: string; name: string; hint: string; scopes: ApiTokenScope[]; created_at: Date; last_used_at: Date | null };
const toToken = (r: Row): ApiToken => ({
  id: Number(r.id),
  name: r.name,
  hint: r.hint,
  scopes: r.scopes,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
});

/**
 * Stores a token's hash for the user, unless they already hold `max` tokens (then null). The count and the
 * insert are one statement, so two requests at once cannot both pass the limit by much.
 */
export async function insertApiToken(
  sql: Db,
  userId: number,
  token: { name: string; hash: string; hint: string; scopes: ApiTokenScope[] },
  max: number,
): Promise<ApiToken | null> {
  const [row] = await sql<Row[]>`
    insert into api_tokens (user_id, name, token_hash, hint, scopes)
    select ${userId}, ${token.name}, ${token.hash}, ${token.hint}, ${token.scopes}::text[]
    where (select count(*) from api_tokens where user_id = ${userId}) < ${max}
    returning id, name, hint, scopes, created_at, last_used_at`;
  return row ? toToken(row) : null;
}

export async function listApiTokens(sql: Db, userId: number): Promise<ApiToken[]> {
  const rows = await sql<Row[]>`select id, name, hint, scopes, created_at, last_used_at from api_tokens
                                where user_id = ${userId} order by id`;
  return rows.map(toToken);
}

/** Revokes (deletes) the user's own token; false for an unknown or someone else's. */
export async function deleteApiToken(sql: Db, userId: number, id: number): Promise<boolean> {
  const rows = await sql`delete from api_tokens where id = ${id} and user_id = ${userId}`;
  return rows.count === 1;
}

export interface TokenHolder {
  user: SessionUser;
  tokenId: number;
  scopes: ApiTokenScope[];
}

// Writing last_used_at on every call would make each API read a write; once a minute says enough.
const TOUCH_AFTER = '1 minute';

/** The user a token hash belongs to, with the token's scopes; notes when it was last used. Null when unknown. */
export async function holderOfApiToken(sql: Db, hash: string): Promise<TokenHolder | null> {
  const [row] = await sql<{ id: string; user_id: string; email: string; name: string; scopes: ApiTokenScope[]; stale: boolean }[]>`
    select t.id, t.user_id, u.email, u.name, t.scopes,
           (t.last_used_at is null or t.last_used_at < now() - ${TOUCH_AFTER}::interval) as stale
    from api_tokens t join users u on u.id = t.user_id where t.token_hash = ${hash}`;
  if (!row) return null;
  if (row.stale) await sql`update api_tokens set last_used_at = now() where id = ${row.id}`;
  return { user: { id: Number(row.user_id), email: row.email, name: row.name }, tokenId: Number(row.id), scopes: row.scopes };
}
