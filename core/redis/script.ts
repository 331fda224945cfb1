import { createHash } from 'node:crypto';
import type { RedisClient } from './client';

/**
 * A Lua script sent by its SHA1 (EVALSHA), so each call carries the keys and arguments only; the first call on a
 * server that has not seen it yet (NOSCRIPT: new server, restart, SCRIPT FLUSH) sends the whole script once.
 */
export function redisScript(lua: string) {
  const sha = createHash('sha1').update(lua).digest('hex');
  return async (redis: RedisClient, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> => {
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error && err.message.startsWith('NOSCRIPT'))) throw err;
      return redis.eval(lua, keys.length, ...keys, ...args);
    }
  };
}
