import type { Standins } from '../../dev/standins/server';
import { createTestDatabase, type TestDatabase } from '../../dev/harness/db';
import { startTestStandins, testBaseEnv } from '../../dev/harness/base-env';
import { deletePrefix, createTestRedis, testQueuePrefix } from '../../dev/harness/redis';
import { apiNodeFlags } from '../../dev/harness/api-node-flags';
import { freePort, startChild, type ChildServer } from '../../dev/harness/processes';

export interface BenchStack {
  /** The api running now (restartApi replaces it). */
  api: ChildServer;
  db: TestDatabase;
  standins: Standins;
  prefix: string;
  env: Record<string, string>;
  /**
   * Stops the api and starts it again on the same port (so APP_URL still names it) with `extraEnv` over the
   * stack's environment: the same database, users and stand-ins, another configuration (e.g. API_PROCESSES).
   */
  restartApi: (extraEnv: Record<string, string>, options?: { nodeArgs?: string[] }) => Promise<void>;
  close: () => Promise<void>;
}

/**
 * The built api (dist/server/api.js) in a process of its own, so the load generator does not share its event
 * loop, with its own database and queue prefix and the stand-ins in this process.
 */
export async function startBenchStack(extraEnv: Record<string, string> = {}, options: { nodeArgs?: string[] } = {}): Promise<BenchStack> {
  const db = await createTestDatabase();
  const prefix = testQueuePrefix();
  const apiPort = await freePort();
  const appUrl = `http://127.0.0.1:${apiPort}`;
  const standins = await startTestStandins(appUrl);
  const env = {
    ...testBaseEnv({ appUrl, databaseUrl: db.url, queuePrefix: prefix, standins }),
    ...extraEnv,
  };
  // Started with the flags `npm start` gives it; nodeArgs: e.g. ['--cpu-prof'] to profile the api (Node refuses
  // that flag in NODE_OPTIONS).
  const startApi = (apiEnv: Record<string, string>, nodeArgs: string[] = []) =>
    startChild([...apiNodeFlags(), ...nodeArgs, 'dist/server/api.js'], apiEnv, { port: apiPort });
  const stack: BenchStack = {
    api: await startApi(env, options.nodeArgs),
    db,
    standins,
    prefix,
    env,
    restartApi: async (changes, restart = {}) => {
      await stack.api.stop();
      stack.api = await startApi({ ...env, ...changes }, restart.nodeArgs);
    },
    close: async () => {
      await stack.api.stop();
      await standins.close();
      const redis = createTestRedis();
      await deletePrefix(redis, prefix);
      redis.disconnect();
      await db.drop();
    },
  };
  return stack;
}
