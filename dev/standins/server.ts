import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { createTilesStandin } from './tiles';
import { createChatChannelsStandin } from './chat-channels';
import { Hono } from 'hono';
import { createGeminiStandin } from './gemini';
import { createGoogleStandin } from './google';
import { createSmtpStandin } from './smtp';
import { sitesIndexFor } from './sites';
import { createStripeStandin } from './stripe';

export interface StandinOptions {
  port: number;
  host?: string;
  /** The app's public origin: Stripe webhooks go to `${appUrl}/webhook`, redirects come back here. */
  appUrl: string;
  googleClientId: string;
  stripeWebhookSecret: string;
  /** Keeps the Stripe stand-in's account in this file between runs (`make dev`); unset keeps it in memory. */
  stripeStateFile?: string;
  /** Port of the SMTP stand-in (same host); 0 or unset picks a free one. */
  smtpPort?: number;
  /**
   * The two addresses of the stand-ins when they differ (in containers): `publicUrl` as the browser opens them
   * (Stripe's hosted pages link there), `serverUrl` as the api and worker fetch them (the sample websites).
   * Both default to the address the stand-ins listen on.
   */
  publicUrl?: string;
  serverUrl?: string;
  /** Where Stripe webhooks go when the app's server is not reached at `appUrl` (default `${appUrl}/webhook`). */
  webhookUrl?: string;
}

/**
 * One HTTP server for every stand-in: their paths do not overlap (Google /oauth2 and /gsi, Gemini /v1beta,
 * Stripe /v1 plus its hosted pages, the chat channels /slack, /discord, /teams, /ntfy and /channels), so one
 * STANDIN_URL serves them all.
 */
export async function startStandins(options: StandinOptions) {
  let publicUrl = '';
  const google = createGoogleStandin({ clientId: options.googleClientId });
  const gemini = createGeminiStandin();
  const stripe = createStripeStandin({
    appUrl: options.appUrl,
    webhookSecret: options.stripeWebhookSecret,
    publicUrl: () => options.publicUrl ?? publicUrl,
    stateFile: options.stripeStateFile,
    webhookUrl: options.webhookUrl,
  });
  const smtp = createSmtpStandin();
  const channels = createChatChannelsStandin();
  const app = new Hono();
  app.get('/', (c) =>
    c.text('Event Finder local stand-ins: Google sign-in, Gemini, Stripe, an SMTP mailbox (/mail/) and chat channels (/channels/).'),
  );
  if (options.serverUrl) {
    // Registered first, so this index answers instead of the one that shows the browser's own address.
    app.get('/sites', sitesIndexFor(options.serverUrl));
    app.get('/sites/', sitesIndexFor(options.serverUrl));
  }
  app.route('/', google.app);
  app.route('/', gemini.app);
  app.route('/', stripe.app);
  app.route('/', smtp.app);
  app.route('/', createTilesStandin().app);
  app.route('/', channels.app);

  const server = createAdaptorServer({ fetch: app.fetch });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(
              `The stand-ins cannot listen on ${options.host ?? '127.0.0.1'}:${options.port}: the port is in use ` +
                '(is another `make dev` still running?). Stop it, or set STANDIN_URL to another port.',
            )
          : err,
      ),
    );
    server.listen(options.port, options.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  publicUrl = `http://${options.host ?? '127.0.0.1'}:${port}`;
  try {
    await smtp.listen(options.smtpPort ?? 0, options.host ?? '127.0.0.1');
  } catch (err) {
    server.close();
    throw err;
  }
  return {
    url: publicUrl,
    port,
    google,
    gemini,
    stripe,
    smtp,
    /** What the Slack, Discord, Teams and ntfy stand-ins received. */
    channels,
    /** `smtp://host:port` of the SMTP stand-in, for SMTP_URL. */
    smtpUrl: `smtp://${options.host ?? '127.0.0.1'}:${smtp.port}`,
    /** The mailbox page, where the SMTP stand-in shows what it received. */
    mailboxUrl: `${options.publicUrl ?? publicUrl}/mail/`,
    close: async () => {
      await Promise.all([
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        }),
        smtp.close(),
      ]);
    },
  };
}

export type Standins = Awaited<ReturnType<typeof startStandins>>;
