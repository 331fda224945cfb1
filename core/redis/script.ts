import { createHash } from 'node:crypto';
import type { RedisClient } from './client';

/**
 * A Lua script sent by its SHA1 (EVALSHA), so each call carries the arguments only; the first call on a server
 * that has not seen it yet (NOSCRIPT: new server, restart, SCRIPT FLUSH) sends the whole script once.
 */
export function redisScript(lua: string, keyCount: number) {
  const sha = createHash('sha1').update(lua).digest('hex');
  return async (redis: RedisClient, keysAndArgs: (string | number)[]): Promise<unknown> => {
    try {
      return await redis.evalsha(sha, keyCount, ...keysAndArgs);
    } catch (err) {
      if (!(err instanceof Error && err.message.startsWith('NOSCRIPT'))) throw err;
      return redis.eval(lua, keyCount, ...keysAndArgs);
    }
  };
}
