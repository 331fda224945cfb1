import { readFileSync } from 'node:fs';
import type { RedisClient } from './client';

/**
 * The Redis Lua scripts the project keeps, as BullMQ keeps its own: one `.lua` file each in core/redis/lua/,
 * read by name when the module that runs it loads (the server bundle carries the folder beside it, web/build.ts).
 * Each runs as an ioredis command defined on the client (EVALSHA, the whole script once after NOSCRIPT).
 * Every key a script touches is under the queue prefix's hash tag, so one Cluster slot.
 */
export function redisScript(name: string, numberOfKeys: number) {
  const lua = readFileSync(new URL(`./lua/${name}.lua`, import.meta.url), 'utf8');
  return (redis: RedisClient, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> => {
    const commands = redis as unknown as Record<string, ((...argv: (string | number)[]) => Promise<unknown>) | undefined>;
    if (!commands[name]) redis.defineCommand(name, { numberOfKeys, lua });
    return commands[name]!.call(redis, ...keys, ...args);
  };
}
