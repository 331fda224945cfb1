import { pathToFileURL } from 'node:url';
import { loadConfigOrExit } from '../../core/config';
import { standinAddressOptions } from './options';
import { startStandins } from './server';
import { stripeStateFileIn } from './state-file';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * The stand-ins listen on STANDIN_URL's port. On its host when that is a loopback address; any other name
 * (in containers, `standins`) is this machine's name on a network, so they listen on every interface.
 */
export function listenHost(standinUrl: string): string {
  const { hostname } = new URL(standinUrl);
  return LOOPBACK.has(hostname) ? hostname.replace(/^\[|\]$/g, '') : '0.0.0.0';
}

/**
 * The local stand-ins as a process of their own (`node dist/standins/main.js`, the `standins` service of
 * compose.yaml): what `make dev` runs in-process, for an api and a worker that run elsewhere. Like `make dev`
 * it serves only while a credential is left unset; with every credential set it says so and exits.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit('tool');
  if (config.standins.length === 0 && !config.mail.standin) {
    console.log('stand-ins: every credential and SMTP_URL is set, so nothing is stood in for; exiting.');
    return;
  }
  const url = new URL(config.standinUrl);
  const standins = await startStandins({
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    host: listenHost(config.standinUrl),
    appUrl: config.appUrl,
    googleClientId: config.google.clientId,
    stripeWebhookSecret: config.stripe.webhookSecret,
    stripeStateFile: config.standinStateDir ? stripeStateFileIn(config.standinStateDir, config.databaseUrl) : undefined,
    smtpPort: config.mail.standinPort,
    ...standinAddressOptions(config),
  });
  // The SMTP mailbox stand-in starts here too, beside the HTTP ones (as dev/run.ts starts it), and stops below.
  const served = [...config.standins, ...(config.mail.standin ? ['SMTP_URL'] : [])];
  console.log(
    `stand-ins: ${served.join(', ')} on port ${standins.port}; the browser opens ${config.standinPublicUrl}, ` +
      `the servers call ${config.standinUrl} (sample websites: ${config.standinUrl}/sites/)`,
  );
  console.log(
    `stand-ins: SMTP on port ${standins.smtp.port} (the api and worker send to ${config.mail.url}); mailbox at ${standins.mailboxUrl}`,
  );

  const stop = async () => {
    await standins.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
