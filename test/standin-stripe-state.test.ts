import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createStripe } from '../core/clients';
import { loadConfig } from '../core/config';
import { stripeStateFile } from '../dev/run';
import { startStandins, type Standins } from '../dev/standins/server';

/**
 * `make dev` run twice: the database still names the customer and subscription the first run's Stripe
 * stand-in made, so the second run's stand-in must still know them (it reads them back from its state file).
 */
describe('the Stripe stand-in across make dev runs', () => {
  let dir: string;
  let webhookReceiver: Server;
  let appUrl: string;
  const received: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'stripe-standin-'));
    // The app's webhook endpoint, as far as the stand-in can tell.
    webhookReceiver = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        received.push((JSON.parse(body) as { type: string }).type);
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => webhookReceiver.listen(0, '127.0.0.1', resolve));
    appUrl = `http://127.0.0.1:${(webhookReceiver.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => webhookReceiver.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (stripeStateFile: string) =>
    startStandins({ port: 0, appUrl, googleClientId: 'x', stripeWebhookSecret: 'whsec_x', stripeStateFile });
  const client = (standins: Standins) => createStripe(loadConfig({ NODE_ENV: 'test', STANDIN_URL: standins.url, LOG_LEVEL: 'silent' }));

  it('keeps customers, subscriptions, prices and idempotent replies in the state file', async () => {
    const file = path.join(dir, 'nested', 'stripe.json');
    const first = await start(file);
    let customerId: string;
    let subscriptionId: string;
    let priceIds: string[];
    try {
      const stripe = client(first);
      const customer = await stripe.customers.create(
        { email: 'ada@example.com', metadata: { user_id: '1' } },
        { idempotencyKey: 'customer-1' },
      );
      customerId = customer.id;
      const prices = await stripe.prices.list({ lookup_keys: ['plus_monthly', 'pro_monthly'] });
      priceIds = prices.data.map((p) => p.id).sort();
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customer.id,
        line_items: [{ price: prices.data.find((p) => p.lookup_key === 'plus_monthly')!.id, quantity: 1 }],
        success_url: `${appUrl}/?success=true&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${appUrl}/?canceled=true`,
      });
      // The hosted page's Pay button.
      const paid = await fetch(`${first.url}/checkout/${session.id}/pay`, { method: 'POST', redirect: 'manual' });
      expect(paid.status).toBe(303);
      expect(received).toContain('checkout.session.completed');
      subscriptionId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
      expect(subscriptionId).toMatch(/^sub_/);
    } finally {
      await first.close();
    }

    const second = await start(file);
    try {
      const stripe = client(second);
      expect((await stripe.customers.retrieve(customerId)).id).toBe(customerId);
      const sub = await stripe.subscriptions.retrieve(subscriptionId);
      expect(sub.status).toBe('active');
      expect(sub.items.data[0]!.price.lookup_key).toBe('plus_monthly');
      // The plan prices are the saved ones, not a second pair under the same lookup keys.
      const prices = await stripe.prices.list({ lookup_keys: ['plus_monthly', 'pro_monthly'] });
      expect(prices.data.map((p) => p.id).sort()).toEqual(priceIds);
      // What the app does next with them: switch plan, open the portal, and a retried create is the same customer.
      const pro = prices.data.find((p) => p.lookup_key === 'pro_monthly')!;
      const updated = await stripe.subscriptions.update(subscriptionId, { items: [{ id: sub.items.data[0]!.id, price: pro.id }] });
      expect(updated.items.data[0]!.price.id).toBe(pro.id);
      const portal = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: `${appUrl}/` });
      expect(portal.url).toContain(`${second.url}/portal/`);
      const again = await stripe.customers.create(
        { email: 'ada@example.com', metadata: { user_id: '1' } },
        { idempotencyKey: 'customer-1' },
      );
      expect(again.id).toBe(customerId);
    } finally {
      await second.close();
    }

    // The switch to pro made in the second run is there for a third.
    const third = await start(file);
    try {
      expect((await client(third).subscriptions.retrieve(subscriptionId)).items.data[0]!.price.lookup_key).toBe('pro_monthly');
    } finally {
      await third.close();
    }
  });

  it('starts with an empty account (and the plan prices) when the file is unreadable', async () => {
    const file = path.join(dir, 'broken.json');
    writeFileSync(file, '{not json');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const standins = await start(file);
    try {
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('cannot read'));
      const prices = await client(standins).prices.list({ lookup_keys: ['plus_monthly', 'pro_monthly'] });
      expect(prices.data).toHaveLength(2);
      await client(standins).customers.create({ email: 'grace@example.com' });
      // The first change replaces the broken file with a good one.
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
        version: 1,
        store: { customers: [expect.objectContaining({ email: 'grace@example.com' })] },
      });
    } finally {
      warn.mockRestore();
      await standins.close();
    }
  });

  it('names one state file per database, inside the git-ignored .dev-state/', () => {
    expect(stripeStateFile('postgres://postgres@127.0.0.1:5432/eventfinder', '/repo')).toBe(
      '/repo/.dev-state/stripe-standin-127.0.0.1-5432-eventfinder.json',
    );
    expect(stripeStateFile('postgres://u:p@db.local/other%20db', '/repo')).toBe(
      '/repo/.dev-state/stripe-standin-db.local-5432-other_db.json',
    );
    expect(readFileSync(path.resolve('.gitignore'), 'utf8')).toMatch(/^\.dev-state\/$/m);
  });
});
