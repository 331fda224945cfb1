import { spawn, type ChildProcess } from 'node:child_process';
import { loadConfigFromProcess } from '../core/config';
import { buildWeb } from '../web/build';
import { startStandins } from './standins/server';

/**
 * `make dev`: the local stand-ins for every credential left unset, the islands rebuilt on change, and the
 * api and worker restarted on change (tsx watch). Real credentials in .env go to the real services.
 */
async function main(): Promise<void> {
  const config = loadConfigFromProcess();
  const standinUrl = new URL(config.standinUrl);
  // The children read the same environment (and .env) themselves; this only adds what the stand-ins decide.
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  if (config.standins.length > 0) {
    const standins = await startStandins({
      port: Number(standinUrl.port || 8090),
      host: standinUrl.hostname,
      appUrl: config.appUrl,
      googleClientId: config.google.clientId,
      stripeWebhookSecret: config.stripe.webhookSecret,
    });
    // The stand-ins also serve sample event websites; let the server read them.
    const allow = [...config.websiteFetchAllow, `${standinUrl.hostname}:${standins.port}`].join(',');
    env.WEBSITE_FETCH_ALLOW = allow;
    console.log(`dev: stand-ins for ${config.standins.join(', ')} on ${standins.url}`);
  }
  await buildWeb({ watch: true });
  const children: ChildProcess[] = [
    spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'api/main.ts'], { env, stdio: 'inherit' }),
    spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'worker/main.ts'], { env, stdio: 'inherit' }),
  ];
  console.log(`dev: open ${config.appUrl}`);
  const stop = () => {
    for (const child of children) child.kill('SIGTERM');
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
