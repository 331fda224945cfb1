import type { Sql } from './client';

export interface User {
  id: number;
  googleSub: string;
  email: string;
  name: string;
  picture: string;
}

export interface GoogleIdentity {
  sub: string;
  email: string;
  name?: string;
  picture?: string;
}

/** Creates or refreshes the user for a Google identity and, the first time, a free account. */
export async function upsertUserFromGoogle(sql: Sql, identity: GoogleIdentity): Promise<User> {
  return sql.begin(async (tx) => {
    const [row] = await tx<{ id: string }[]>`
      insert into users (google_sub, email, name, picture)
      values (${identity.sub}, ${identity.email}, ${identity.name ?? ''}, ${identity.picture ?? ''})
      on conflict (google_sub) do update
        set email = excluded.email, name = excluded.name, picture = excluded.picture, last_login_at = now()
      returning id`;
    const id = Number(row!.id);
    await tx`insert into accounts (user_id) values (${id}) on conflict (user_id) do nothing`;
    return {
      id,
      googleSub: identity.sub,
      email: identity.email,
      name: identity.name ?? '',
      picture: identity.picture ?? '',
    };
  });
}
