import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripe } from '../core/clients';
import { loadConfig } from '../core/config';
import { startStandins, type Standins } from '../dev/standins/server';

// In containers the stand-ins have two addresses: the servers' (http://standins:8090) and the browser's
// (http://localhost:8090), and the app's server is not at the browser's APP_URL. Each link goes to the right one.
describe('stand-ins reached at another address by the browser than by the servers', () => {
  let standins: Standins;
  let app: Server;
  const received: string[] = [];

  beforeAll(async () => {
    app = createServer((req, res) => {
      received.push(req.url ?? '');
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    standins = await startStandins({
      port: 0,
      appUrl: 'http://localhost:8080',
      googleClientId: 'local-standin.apps.googleusercontent.com',
      stripeWebhookSecret: 'whsec_x',
      publicUrl: 'http://localhost:8090',
      serverUrl: 'http://standins:8090',
      webhookUrl: `http://127.0.0.1:${(app.address() as AddressInfo).port}/hooks/stripe`,
    });
  });
  afterAll(async () => {
    await standins?.close();
    await new Promise((resolve) => app?.close(resolve));
  });

  it('lists the sample websites under the servers’ address, which the server fetches', async () => {
    const index = await (await fetch(`${standins.url}/sites/`)).text();
    expect(index).toContain('http://standins:8090/sites/upcoming/berlin-ai.html');
    expect(index).not.toContain(standins.url);
  });

  it('links Stripe’s hosted checkout under the browser’s address and sends webhooks to the app’s server', async () => {
    const stripe = createStripe(loadConfig({ STANDIN_URL: standins.url, LOG_LEVEL: 'silent' }));
    const [price] = (await stripe.prices.list({ lookup_keys: ['plus_monthly'] })).data;
    const customer = await stripe.customers.create({ email: 'ada@example.com' });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: price!.id, quantity: 1 }],
      success_url: 'http://localhost:8080/?checkout=success',
      cancel_url: 'http://localhost:8080/?checkout=cancel',
    });
    expect(session.url?.startsWith('http://localhost:8090/')).toBe(true);
    await standins.stripe.pay(session.id).delivered;
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((path) => path === '/hooks/stripe')).toBe(true);
  });
});
