import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ADMIN_BASE_PATH } from '../api/routes/admin';
import { loadConfig, loadConfigFromProcess } from '../core/config';
import { createSql } from '../db/client';
import { createDatabaseIfMissing } from '../db/create-database';
import { migrate } from '../db/migrate';
import { buildWeb } from '../web/build';
import { pipePrettyLogs } from './pretty-logs';
import { startLocalServices, type LocalServices } from './services/local-services';
import { standinAddressOptions } from './standins/options';
import { startStandins, type Standins } from './standins/server';
import { stripeStateFileIn } from './standins/state-file';
import { apiNodeFlags } from './harness/api-node-flags';
import { startGroup, signalGroup, stopGroups, type ProcessGroup } from './supervise';

/** How long the api (in-flight requests) and the worker (a running timer) get to stop before SIGKILL. */
const STOP_GRACE_MS = 10_000;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * WEBSITE_FETCH_ALLOW for the children: the configured entries plus the stand-ins' sample sites, under both
 * loopback names when the stand-ins listen on loopback (the app itself is at localhost, so people type that).
 */
export function devFetchAllow(configured: string[], standinHost: string, standinPort: number): string[] {
  const host = standinHost.toLowerCase();
  const hosts = LOOPBACK.has(host) ? ['127.0.0.1', 'localhost'] : [host];
  const allow = [...configured];
  for (const h of hosts) if (!allow.includes(`${h}:${standinPort}`)) allow.push(`${h}:${standinPort}`);
  return allow;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The Postgres and Redis this run started (or found); stopped last, after everything that uses them. */
let services: LocalServices | null = null;

/**
 * Where the Stripe stand-in keeps its account between runs: one file per database, since the database holds
 * the customer and subscription ids that must still exist after a restart (.dev-state/ is git-ignored).
 */
export function stripeStateFile(databaseUrl: string, root = ROOT): string {
  return stripeStateFileIn(path.join(root, '.dev-state'), databaseUrl);
}

/** DATABASE_URL's database, created when missing and migrated (what `make migrate` does, here in-process). */
async function prepareDatabase(databaseUrl: string): Promise<void> {
  if (await createDatabaseIfMissing(databaseUrl)) console.log(`dev: created database ${new URL(databaseUrl).pathname.slice(1)}`);
  const sql = createSql(databaseUrl, { max: 1 });
  try {
    const applied = await migrate(sql);
    if (applied.length) console.log(`dev: applied ${applied.join(', ')}`);
  } finally {
    await sql.end();
  }
}

/** True once `url` answers 200 (asked every quarter second), false if `stopped()` says to give up first. */
export async function untilServed(url: string, stopped: () => boolean): Promise<boolean> {
  while (!stopped()) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
      await res.body?.cancel();
      if (res.ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

/**
 * `make dev`: Postgres and Redis (of this checkout's own when none is set or answers, dev/services), the
 * database created and migrated, the local stand-ins for every credential left unset, the islands rebuilt on change, and the
 * api and worker restarted on change (tsx watch). Real credentials in .env go to the real services.
 * Ctrl-C, SIGTERM or SIGHUP stops everything it started before it exits.
 */
async function main(): Promise<void> {
  // .env is read first: a DATABASE_URL or REDIS_URL set there is used as it is.
  loadConfigFromProcess('api');
  services = await startLocalServices({ env: process.env, stateDir: path.join(ROOT, '.dev-state'), purpose: 'dev' });
  Object.assign(process.env, services.env);
  const config = loadConfig(process.env, 'api');
  await prepareDatabase(config.databaseUrl);
  const standinUrl = new URL(config.standinUrl);
  // The children read the same environment (and .env) themselves; this only adds what the stand-ins decide.
  const env: NodeJS.ProcessEnv = { ...process.env };
  let standins: Standins | null = null;
  if (config.standins.length > 0 || config.mail.standin) {
    standins = await startStandins({
      port: Number(standinUrl.port || 8090),
      host: standinUrl.hostname,
      appUrl: config.appUrl,
      googleClientId: config.google.clientId,
      stripeWebhookSecret: config.stripe.webhookSecret,
      stripeStateFile: stripeStateFile(config.databaseUrl),
      smtpPort: config.mail.standinPort,
      ...standinAddressOptions(config),
    });
    // The stand-ins also serve sample event websites (listed at /sites/); let the server read them.
    env.WEBSITE_FETCH_ALLOW = devFetchAllow(config.websiteFetchAllow, standinUrl.hostname, standins.port).join(',');
    // Timers' webhooks and chat channels may post to the stand-ins' Slack, Discord, Teams and ntfy (/channels/).
    env.WEBHOOK_ALLOW = devFetchAllow(config.webhookAllow, standinUrl.hostname, standins.port).join(',');
    const served = [...config.standins, ...(config.mail.standin ? ['SMTP_URL'] : [])];
    console.log(`dev: stand-ins for ${served.join(', ')} on ${standins.url} (sample websites: ${standins.url}/sites/)`);
    if (config.mail.standin) {
      env.SMTP_URL = standins.smtpUrl;
      console.log(`dev: emails go to the local SMTP stand-in (${standins.smtpUrl}); read them at ${standins.mailboxUrl}`);
    }
  }
  // The islands' first build runs while the api and the worker load (the api reads the manifest per page, and
  // re-reads it when it changes), so neither waits for the other.
  const built = buildWeb({ watch: true });

  // tsx's own CLI under this node, not npx: no npm and shell in between that would swallow a signal.
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  // Their logs stay JSON (the production format); this terminal shows them readably (dev/pretty-logs.ts).
  // The api runs with the Node flags `npm start` gives it, through NODE_OPTIONS, which tsx's child inherits.
  const watch = (name: string, entry: string, nodeFlags: string[] = []) => {
    const options = [env.NODE_OPTIONS, ...nodeFlags].filter(Boolean).join(' ');
    const childEnv = options ? { ...env, NODE_OPTIONS: options } : env;
    const group = startGroup(name, process.execPath, [tsx, 'watch', '--clear-screen=false', entry], childEnv, { stdout: 'pipe' });
    if (group.child.stdout) void pipePrettyLogs(group.child.stdout, process.stdout);
    return group;
  };
  const groups: ProcessGroup[] = [watch('api', 'api/main.ts', apiNodeFlags()), watch('worker', 'worker/main.ts')];

  let stopping = false;
  // The address is said once, when the start page answers there (the api listening, the islands built), so
  // the first click never meets a refused connection or a page without its scripts.
  void untilServed(config.appUrl, () => stopping).then((served) => {
    if (!served) return;
    console.log(`dev: open ${config.appUrl}`);
    const board = new URL(ADMIN_BASE_PATH, config.appUrl).href;
    console.log(
      config.admin
        ? `dev: queue dashboard (Bull Board) at ${board}, signed in as ADMIN_USER`
        : `dev: queue dashboard (Bull Board) is off; set ADMIN_USER and ADMIN_PASSWORD in .env to open it at ${board}`,
    );
  });
  const stop = async (code: number) => {
    if (stopping) {
      // A second Ctrl-C: do not wait any longer.
      for (const group of groups) signalGroup(group, 'SIGKILL');
      process.exit(code);
    }
    stopping = true;
    console.log(
      `dev: stopping the api, the worker, the stand-ins${services && Object.keys(services.env).length ? ' and the services it started' : ''}`,
    );
    await stopGroups(groups, { graceMs: STOP_GRACE_MS });
    // The islands' watch, and the esbuild service process under this one.
    await (await built.catch(() => null))?.stop();
    await standins?.close();
    await services?.stop();
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0));
  // Last resort (an exception in this process): leave no group behind.
  process.on('exit', () => {
    for (const group of groups) signalGroup(group, 'SIGKILL');
  });
  built.catch((err) => {
    console.error(`dev: the islands did not build: ${err instanceof Error ? err.message : err}`);
    void stop(1);
  });
  for (const group of groups) {
    void group.exited.then((result) => {
      if (stopping) return;
      console.error(`dev: the ${group.name} watcher exited (${result}); stopping everything`);
      void stop(1);
    });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch(async (err) => {
    console.error(err instanceof Error ? err.message : err);
    await services?.stop();
    process.exit(1);
  });
}
