import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import { checkoutPage, portalPage } from './stripe-pages';
import { list, obj, parseStripeForm, str, type FormObject } from './stripe-form';
import { StripeStandinError, StripeStore, type StripeSnapshot } from './stripe-store';
import { signatureHeader, WebhookSender } from './stripe-webhooks';

export interface StripeStandinOptions {
  /** The app's origin as the browser knows it: the portal returns here. */
  appUrl: string;
  /** Where webhooks go: `${appUrl}/webhook` unless the app's server is reached at another address. */
  webhookUrl?: string;
  webhookSecret: string;
  /** The stand-in's own origin (known once it listens): hosted page URLs start with it. */
  publicUrl: () => string;
  /** Start with the two plan prices, as an account after `npm run stripe:setup` (default true). */
  seedPrices?: boolean;
  /**
   * A JSON file that keeps the account (customers, subscriptions, ...) between runs, read at start and
   * rewritten after every change. `make dev` sets it: the database keeps the customer and subscription ids a
   * restart would otherwise orphan. Unset (tests): memory only.
   */
  stateFile?: string;
}

interface SavedState {
  version: 1;
  store: StripeSnapshot;
  idempotent: [string, { status: number; body: unknown }][];
}

function readState(file: string): SavedState | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null; // The first run.
  }
  try {
    const state = JSON.parse(text) as SavedState;
    if (state.version === 1) return state;
  } catch {
    // Unreadable: start over, as the message below says.
  }
  console.warn(`Stripe stand-in: ignoring ${file}, which it cannot read; starting with an empty account.`);
  return null;
}

function writeState(file: string, state: SavedState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state));
  renameSync(tmp, file);
}

/**
 * Stripe REST stand-in (form-encoded `/v1` calls as the official client sends them), with hosted checkout and
 * portal pages and signed webhooks. State lives in memory, and in `stateFile` when one is given.
 */
export function createStripeStandin(options: StripeStandinOptions) {
  const store = new StripeStore();
  const webhooks = new WebhookSender(options.webhookUrl ?? `${options.appUrl}/webhook`, options.webhookSecret);
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const base = () => options.publicUrl();

  const saved = options.stateFile ? readState(options.stateFile) : null;
  if (saved) {
    store.restore(saved.store);
    for (const [key, reply] of saved.idempotent) idempotent.set(key, reply);
  }
  const save = () => {
    if (!options.stateFile) return;
    writeState(options.stateFile, { version: 1, store: store.snapshot(), idempotent: [...idempotent] });
  };

  if (options.seedPrices !== false) {
    for (const [name, amount, key] of [
      ['Event Finder Plus', 299, 'plus_monthly'],
      ['Event Finder Pro', 699, 'pro_monthly'],
    ] as const) {
      if (store.listPrices([key]).length > 0) continue; // Restored from the state file.
      const product = store.createProduct({ name, metadata: {} });
      store.createPrice({ product: product.id, unitAmount: amount, currency: 'usd', interval: 'month', lookupKey: key, metadata: {} });
    }
  }

  /** Pays a session: subscription + first invoice, then the events Stripe sends for a new subscription. */
  function pay(sessionId: string, deliver = true) {
    const { session, subscription, invoice } = store.completeSession(sessionId);
    const events = [
      webhooks.emit('customer.subscription.created', subscription, deliver),
      webhooks.emit('invoice.paid', invoice, deliver),
      webhooks.emit('checkout.session.completed', session, deliver),
    ];
    return { session, subscription, events: events.map((e) => e.event), delivered: Promise.all(events.map((e) => e.delivered)) };
  }

  /** A renewal whose payment fails: the period still advances, the subscription turns past_due. */
  function failRenewal(subscriptionId: string, deliver = true) {
    const sub = store.get<Record<string, any>>(store.subscriptions, subscriptionId, 'subscription');
    store.advancePeriod(sub);
    sub.status = 'past_due';
    const invoice = store.invoice(sub, 'subscription_cycle', 'open');
    const events = [
      webhooks.emit('customer.subscription.updated', sub, deliver),
      webhooks.emit('invoice.payment_failed', invoice, deliver),
    ];
    return { subscription: sub, events: events.map((e) => e.event), delivered: Promise.all(events.map((e) => e.delivered)) };
  }

  /** A paid renewal: the next period (or, when past_due, payment of the open renewal invoice). */
  function renew(subscriptionId: string, deliver = true) {
    const sub = store.get<Record<string, any>>(store.subscriptions, subscriptionId, 'subscription');
    if (sub.status !== 'past_due') store.advancePeriod(sub);
    sub.status = 'active';
    const invoice = store.invoice(sub, 'subscription_cycle', 'paid');
    const events = [webhooks.emit('customer.subscription.updated', sub, deliver), webhooks.emit('invoice.paid', invoice, deliver)];
    return { subscription: sub, events: events.map((e) => e.event), delivered: Promise.all(events.map((e) => e.delivered)) };
  }

  /** Cancels now, as the portal's cancel does (immediately, not at period end, to keep the stand-in simple). */
  function cancel(subscriptionId: string, deliver = true) {
    const sub = store.cancelSubscription(subscriptionId);
    const { event, delivered } = webhooks.emit('customer.subscription.deleted', sub, deliver);
    return { subscription: sub, events: [event], delivered };
  }

  const app = new Hono();

  // Every change arrives as a POST or DELETE (API calls and the hosted pages' buttons alike): save after it.
  const saveAfterChange = async (c: Context, next: () => Promise<void>) => {
    await next();
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') save();
  };
  for (const paths of ['/v1/*', '/checkout/*', '/portal/*']) app.use(paths, saveAfterChange);

  // API keys: Stripe answers 401 without a Bearer secret key.
  app.use('/v1/*', async (c, next) => {
    if (!/^Bearer sk_/.test(c.req.header('authorization') ?? '')) {
      return c.json(
        new StripeStandinError(401, 'You did not provide a valid API key.', 'api_key_invalid', 'invalid_request_error').toJSON(),
        401,
      );
    }
    const key = c.req.method === 'POST' ? c.req.header('idempotency-key') : undefined;
    const seen = key ? idempotent.get(key) : undefined;
    if (seen) return c.json(seen.body as object, seen.status as 200);
    await next();
    if (key && c.res.status < 500) idempotent.set(key, { status: c.res.status, body: await c.res.clone().json() });
  });

  const form = async (c: Context): Promise<FormObject> =>
    parseStripeForm(
      c.req.method === 'GET' || c.req.method === 'DELETE' ? new URL(c.req.url).searchParams : new URLSearchParams(await c.req.text()),
    );

  app.post('/v1/customers', async (c) => {
    const f = await form(c);
    return c.json(store.createCustomer({ email: str(f, 'email'), name: str(f, 'name'), metadata: obj(f, 'metadata') }));
  });
  app.get('/v1/customers/:id', (c) => c.json(store.get(store.customers, c.req.param('id'), 'customer')));

  app.post('/v1/products', async (c) => {
    const f = await form(c);
    const name = str(f, 'name');
    if (!name) throw new StripeStandinError(400, 'Missing required param: name.', 'parameter_missing', 'invalid_request_error', 'name');
    return c.json(store.createProduct({ name, metadata: obj(f, 'metadata') }));
  });

  app.get('/v1/prices', async (c) => {
    const f = await form(c);
    return c.json(store.list(store.listPrices(list<string>(f, 'lookup_keys')), '/v1/prices'));
  });
  app.post('/v1/prices', async (c) => {
    const f = await form(c);
    const product = str(f, 'product');
    const unitAmount = Number(str(f, 'unit_amount'));
    if (!product || !Number.isInteger(unitAmount)) {
      throw new StripeStandinError(400, 'Missing required param: product or unit_amount.', 'parameter_missing');
    }
    return c.json(
      store.createPrice({
        product,
        unitAmount,
        currency: str(f, 'currency') ?? 'usd',
        interval: str(obj(f, 'recurring'), 'interval') ?? 'month',
        lookupKey: str(f, 'lookup_key'),
        metadata: obj(f, 'metadata'),
      }),
    );
  });

  app.post('/v1/checkout/sessions', async (c) => {
    const f = await form(c);
    const items = list<FormObject>(f, 'line_items');
    const price = items[0] ? str(items[0], 'price') : undefined;
    const customer = str(f, 'customer');
    if (str(f, 'mode') !== 'subscription')
      throw new StripeStandinError(
        400,
        'The stand-in supports mode=subscription only.',
        'parameter_invalid_string',
        'invalid_request_error',
        'mode',
      );
    if (!customer || !price)
      throw new StripeStandinError(400, 'Missing required param: customer or line_items[0][price].', 'parameter_missing');
    if (!store.customers.has(customer))
      throw new StripeStandinError(400, `No such customer: '${customer}'`, 'resource_missing', 'invalid_request_error', 'customer');
    const successUrl = str(f, 'success_url');
    const cancelUrl = str(f, 'cancel_url');
    if (!successUrl || !cancelUrl)
      throw new StripeStandinError(400, 'Missing required param: success_url or cancel_url.', 'parameter_missing');
    const session = store.createSession({
      customer,
      price,
      clientReferenceId: str(f, 'client_reference_id'),
      successUrl,
      cancelUrl,
      metadata: obj(f, 'metadata'),
      baseUrl: base(),
    });
    return c.json(session);
  });
  app.get('/v1/checkout/sessions', async (c) => {
    const f = await form(c);
    return c.json(store.list(store.listSessions({ customer: str(f, 'customer'), status: str(f, 'status') }), '/v1/checkout/sessions'));
  });
  app.get('/v1/checkout/sessions/:id', (c) => c.json(store.get(store.sessions, c.req.param('id'), 'checkout session')));
  app.post('/v1/checkout/sessions/:id/expire', (c) => {
    const session = store.expireSession(c.req.param('id'));
    webhooks.emit('checkout.session.expired', session);
    return c.json(session);
  });

  app.get('/v1/subscriptions', async (c) => {
    const f = await form(c);
    return c.json(store.list(store.listSubscriptions({ customer: str(f, 'customer'), status: str(f, 'status') }), '/v1/subscriptions'));
  });
  app.get('/v1/subscriptions/:id', (c) => c.json(store.get(store.subscriptions, c.req.param('id'), 'subscription')));
  app.post('/v1/subscriptions/:id', async (c) => {
    const f = await form(c);
    const items = list<FormObject>(f, 'items').map((i) => ({ id: str(i, 'id'), price: str(i, 'price') }));
    const sub = store.updateSubscription(c.req.param('id'), items, obj(f, 'metadata'));
    webhooks.emit('customer.subscription.updated', sub);
    return c.json(sub);
  });
  app.delete('/v1/subscriptions/:id', (c) => c.json(cancel(c.req.param('id')).subscription));

  app.post('/v1/billing_portal/sessions', async (c) => {
    const f = await form(c);
    const customer = str(f, 'customer');
    if (!customer)
      throw new StripeStandinError(400, 'Missing required param: customer.', 'parameter_missing', 'invalid_request_error', 'customer');
    if (!store.customers.has(customer))
      throw new StripeStandinError(400, `No such customer: '${customer}'`, 'resource_missing', 'invalid_request_error', 'customer');
    return c.json(store.createPortalSession({ customer, returnUrl: str(f, 'return_url'), baseUrl: base() }));
  });

  app.all('/v1/*', (c) =>
    c.json(new StripeStandinError(404, `Unrecognized request URL (${c.req.method}: ${c.req.path}).`, 'resource_missing').toJSON(), 404),
  );

  // Hosted checkout page: 'Pay' completes the session, the webhooks go out, then back to the success URL.
  app.get('/checkout/:id', (c) => {
    const session = store.get<Record<string, any>>(store.sessions, c.req.param('id'), 'checkout session');
    const price = store.prices.get(session.price)!;
    const product = store.products.get(price.product);
    const customer = store.customers.get(session.customer);
    return c.html(
      checkoutPage({
        sessionId: session.id,
        productName: product?.name ?? 'subscription',
        amount: price.unit_amount,
        currency: price.currency,
        email: customer?.email ?? '',
        cancelUrl: session.cancel_url,
        open: session.status === 'open',
      }),
    );
  });
  app.post('/checkout/:id/pay', async (c) => {
    const { session, delivered } = pay(c.req.param('id'));
    await delivered;
    return c.redirect(session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id), 303);
  });

  app.get('/portal/:id', (c) => {
    const portal = store.get<Record<string, any>>(store.portalSessions, c.req.param('id'), 'billing portal session');
    const customer = store.customers.get(portal.customer)!;
    const subscriptions = store.listSubscriptions({ customer: portal.customer }).map((s) => {
      const item = s.items.data[0];
      return {
        id: s.id,
        status: s.status,
        amount: item.price.unit_amount,
        currency: item.price.currency,
        periodEnd: item.current_period_end,
        product: store.products.get(item.price.product)?.name ?? 'Subscription',
      };
    });
    return c.html(
      portalPage({ portalId: portal.id, email: customer.email ?? '', returnUrl: portal.return_url ?? options.appUrl, subscriptions }),
    );
  });
  for (const [action, run] of [
    ['renew-fail', failRenewal],
    ['renew', renew],
    ['cancel', cancel],
  ] as const) {
    app.post(`/portal/:id/${action}`, async (c) => {
      const portal = store.get<Record<string, any>>(store.portalSessions, c.req.param('id'), 'billing portal session');
      const subscription = String((await c.req.parseBody()).subscription ?? '');
      const sub = store.get<Record<string, any>>(store.subscriptions, subscription, 'subscription');
      if (sub.customer !== portal.customer)
        throw new StripeStandinError(403, 'That subscription belongs to another customer.', 'resource_missing');
      await run(subscription).delivered;
      return c.redirect(`/portal/${portal.id}`, 303);
    });
  }

  app.onError((err, c) => {
    if (err instanceof StripeStandinError) return c.json(err.toJSON(), err.status as 400);
    return c.json(new StripeStandinError(500, `Stand-in failure: ${err.message}`, 'api_error', 'api_error').toJSON(), 500);
  });

  return {
    app,
    store,
    /** Every event created so far, oldest first. */
    events: webhooks.events,
    /** Every delivery attempt and the app's answer. */
    deliveries: webhooks.deliveries,
    /** Resolves once queued webhooks have been delivered. */
    idle: () => webhooks.idle(),
    /** Sends one event to the app now (redelivery or a chosen order); returns the HTTP status. */
    deliver: (event: (typeof webhooks.events)[number]) => webhooks.deliver(event),
    /** A valid Stripe-Signature header for `body`. */
    sign: (body: string, timestamp?: number) => signatureHeader(options.webhookSecret, body, timestamp),
    pay,
    failRenewal,
    renew,
    cancel,
  };
}

export type StripeStandin = ReturnType<typeof createStripeStandin>;
