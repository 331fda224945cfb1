import { parseArgs } from 'node:util';
import { endSessionsByOperator } from '../core/auth/end-sessions';
import { announceRevocation } from '../core/auth/session-revocation';
import { loadConfigFromProcess } from '../core/config';
import { createRedis, type RedisClient } from '../core/redis/client';
import { createSql } from '../db/client';
import type { SessionsToEnd } from '../db/sessions';

const USAGE = `Usage: end-sessions --user <email or numeric id>   (every session of that user)
       end-sessions --session <token_hash>          (one session: its row's token_hash in the sessions table)`;

/** The operator's arguments as what to end; throws a sentence saying what is wrong and what to type. */
function sessionsToEnd(argv: string[]): SessionsToEnd {
  const { values } = parseArgs({ args: argv, options: { user: { type: 'string' }, session: { type: 'string' } }, strict: true });
  if (values.user !== undefined && values.session !== undefined) throw new Error(`Give --user or --session, not both.\n${USAGE}`);
  if (values.session !== undefined) {
    if (!/^[0-9a-f]{64}$/.test(values.session)) throw new Error(`--session takes a session's token_hash (64 hex digits).\n${USAGE}`);
    return { tokenHash: values.session };
  }
  const user = values.user?.trim();
  if (!user) throw new Error(USAGE);
  if (/^\d+$/.test(user)) return { userId: Number(user) };
  if (!user.includes('@')) throw new Error(`--user takes an email address or a numeric user id, not "${user}".\n${USAGE}`);
  return { email: user };
}

/** Resolves once Redis answers (the 'requests' connection queues nothing before that), or rejects. */
function whenReady(redis: RedisClient): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    redis.once('ready', () => resolve());
    redis.once('error', (err: Error) => reject(err));
  });
}

/**
 * Ends sessions as logout does, for an operator (a stolen cookie reported, a user locked out): the rows go and
 * every api process hears it on Redis, so a copied cookie pair is refused on its next request (docs/decisions/sign-in-and-sessions.md).
 */
async function main(): Promise<void> {
  const target = sessionsToEnd(process.argv.slice(2));
  const config = loadConfigFromProcess();
  const sql = createSql(config.databaseUrl, { max: 1 });
  const redis = createRedis(config, 'requests');
  try {
    // Redis first: deleting rows nobody is told about would leave copied pairs working until their proofs expire.
    await whenReady(redis).catch((err: Error) => {
      throw new Error(`Redis did not answer (${err.message}); nothing was ended. Check REDIS_URL and try again.`);
    });
    const announce = (hashes: readonly string[]) =>
      announceRevocation(redis, config.queuePrefix, hashes).catch((err: Error) => {
        throw new Error(
          `The sessions were deleted, but Redis did not take the announcement (${err.message}): a copied cookie pair may work on for up to SESSION_PROOF_SECONDS.`,
        );
      });
    const ended = await endSessionsByOperator(sql, announce, target);
    console.log(ended ? `Ended ${ended} session${ended === 1 ? '' : 's'} on every api process.` : 'No session matched: nothing was ended.');
  } finally {
    redis.disconnect();
    await sql.end();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
