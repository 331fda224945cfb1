import { type Standins, startStandins } from '../standins/server';
import { testRedisUrl } from './redis';

export interface BaseEnvOptions {
  appUrl: string;
  databaseUrl: string;
  queuePrefix: string;
  standins: Pick<Standins, 'url' | 'port' | 'smtpUrl'>;
}

/**
 * The environment every test or bench deployment starts from: a database and queue prefix of its own, and the
 * local stand-ins for every outside service, so nothing it does reaches the real ones. Callers spread their own
 * keys after it (admin login, log level, a test's overrides).
 */
export function testBaseEnv(options: BaseEnvOptions): Record<string, string> {
  return {
    NODE_ENV: 'test',
    APP_URL: options.appUrl,
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: options.queuePrefix,
    STANDIN_URL: options.standins.url,
    // Website facts may be fetched from the stand-ins' sample sites, and from nowhere else.
    WEBSITE_FETCH_ALLOW: `127.0.0.1:${options.standins.port}`,
    // Timers' chat channels may post to the stand-ins' Slack, Discord, Teams and ntfy, as in make dev.
    WEBHOOK_ALLOW: `127.0.0.1:${options.standins.port}`,
    // Digests go to the stand-ins' mailbox, as in make dev, not to a closed port they would be retried against.
    SMTP_URL: options.standins.smtpUrl,
    LOG_LEVEL: 'silent',
    // One api process per deployment unless a test or bench asks for more: the machine is shared by many.
    API_PROCESSES: '1',
  };
}

/** The local stand-ins for a test or bench deployment at `appUrl`, on a free port, with the test identities. */
export function startTestStandins(appUrl: string): Promise<Standins> {
  return startStandins({
    port: 0,
    appUrl,
    googleClientId: 'local-standin.apps.googleusercontent.com',
    stripeWebhookSecret: 'whsec_local_standin',
  });
}
