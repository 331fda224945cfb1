import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStripe } from '../clients';
import { loadConfig } from '../config';
import { createStripeStandin } from '../../dev/standins/stripe';
import { ensurePlanPrices, findPlanPrice } from './plan-prices';

describe('ensurePlanPrices (npm run stripe:setup)', () => {
  const standin = createStripeStandin({ appUrl: 'http://127.0.0.1:9', webhookSecret: 'whsec_x', publicUrl: () => '', seedPrices: false });
  const server = createAdaptorServer({ fetch: standin.app.fetch });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('creates the two monthly prices once and leaves them alone on the next run', async () => {
    const stripe = createStripe(loadConfig({ STANDIN_URL: url }));
    expect(await ensurePlanPrices(stripe)).toEqual({ plus_monthly: 'created', pro_monthly: 'created' });
    expect(await ensurePlanPrices(stripe)).toEqual({ plus_monthly: 'exists', pro_monthly: 'exists' });
    const plus = await findPlanPrice(stripe, 'plus_monthly');
    const pro = await findPlanPrice(stripe, 'pro_monthly');
    expect(plus).toMatchObject({ unit_amount: 299, currency: 'usd', recurring: { interval: 'month' } });
    expect(pro).toMatchObject({ unit_amount: 699, currency: 'usd', recurring: { interval: 'month' } });
    expect(standin.store.prices.size).toBe(2);
    expect(standin.store.products.size).toBe(2);
  });
});
