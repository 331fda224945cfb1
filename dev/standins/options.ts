import type { Config } from '../../core/config';
import type { StandinOptions } from './server';

/**
 * The stand-ins' addresses from the config, the same for `make dev` and the stand-ins process: the browser's
 * (`STANDIN_PUBLIC_URL`), the servers' (`STANDIN_URL`) when it differs, and where Stripe webhooks go.
 */
export function standinAddressOptions(config: Config): Pick<StandinOptions, 'publicUrl' | 'serverUrl' | 'webhookUrl'> {
  return {
    publicUrl: config.standinPublicUrl,
    serverUrl: config.standinPublicUrl === config.standinUrl ? undefined : config.standinUrl,
    webhookUrl: config.standinWebhookUrl,
  };
}
