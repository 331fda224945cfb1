import { randomBytes } from 'node:crypto';

/** Stripe's `{error: {...}}` reply, thrown by the store and rendered by the routes. */
export class StripeStandinError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly type = 'invalid_request_error',
    readonly param?: string,
  ) {
    super(message);
  }
  toJSON() {
    return { error: { type: this.type, message: this.message, code: this.code, ...(this.param ? { param: this.param } : {}) } };
  }
}

type Json = Record<string, any>;

export const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** One calendar month later, as Stripe bills monthly prices. */
export function addMonth(seconds: number): number {
  const d = new Date(seconds * 1000);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return Math.floor(d.getTime() / 1000);
}

const list = (data: Json[], url: string) => ({ object: 'list', data, has_more: false, url });

const KINDS = ['customers', 'products', 'prices', 'sessions', 'subscriptions', 'invoices', 'portalSessions'] as const;

/** Every object of the store, by kind: what `make dev` saves so the account outlives a restart. */
export type StripeSnapshot = Partial<Record<(typeof KINDS)[number], Json[]>>;

/** The stand-in's in-memory Stripe account: objects shaped like the API's (the fields the project reads). */
export class StripeStore {
  readonly customers = new Map<string, Json>();
  readonly products = new Map<string, Json>();
  readonly prices = new Map<string, Json>();
  readonly sessions = new Map<string, Json>();
  readonly subscriptions = new Map<string, Json>();
  readonly invoices = new Map<string, Json>();
  readonly portalSessions = new Map<string, Json>();

  snapshot(): StripeSnapshot {
    return Object.fromEntries(KINDS.map((kind) => [kind, [...this[kind].values()]]));
  }

  /** Replaces the store's objects with a snapshot's (kinds it lacks are left empty). */
  restore(snapshot: StripeSnapshot): void {
    for (const kind of KINDS) {
      this[kind].clear();
      for (const object of snapshot[kind] ?? []) this[kind].set(object.id, object);
    }
  }

  get<T extends Json>(map: Map<string, Json>, id: string, what: string): T {
    const found = map.get(id);
    if (!found) throw new StripeStandinError(404, `No such ${what}: '${id}'`, 'resource_missing', 'invalid_request_error', 'id');
    return found as T;
  }

  createCustomer(p: { email?: string; name?: string; metadata: Json }): Json {
    const customer = {
      id: newId('cus'),
      object: 'customer',
      created: nowSeconds(),
      email: p.email ?? null,
      name: p.name ?? null,
      metadata: p.metadata,
      livemode: false,
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  createProduct(p: { name: string; metadata: Json }): Json {
    const product = { id: newId('prod'), object: 'product', active: true, created: nowSeconds(), name: p.name, metadata: p.metadata };
    this.products.set(product.id, product);
    return product;
  }

  createPrice(p: { product: string; unitAmount: number; currency: string; interval: string; lookupKey?: string; metadata: Json }): Json {
    this.get(this.products, p.product, 'product');
    if (p.lookupKey && this.listPrices([p.lookupKey]).length > 0) {
      throw new StripeStandinError(
        400,
        `A price (\`${p.lookupKey}\`) already uses that lookup key.`,
        'lookup_key_in_use',
        'invalid_request_error',
        'lookup_key',
      );
    }
    const price = {
      id: newId('price'),
      object: 'price',
      active: true,
      created: nowSeconds(),
      currency: p.currency,
      product: p.product,
      unit_amount: p.unitAmount,
      lookup_key: p.lookupKey ?? null,
      type: 'recurring',
      metadata: p.metadata,
      recurring: { interval: p.interval, interval_count: 1, usage_type: 'licensed' },
    };
    this.prices.set(price.id, price);
    return price;
  }

  listPrices(lookupKeys: string[]): Json[] {
    return [...this.prices.values()].filter((p) => p.active && (lookupKeys.length === 0 || lookupKeys.includes(p.lookup_key)));
  }

  createSession(p: {
    customer: string;
    price: string;
    clientReferenceId?: string;
    successUrl: string;
    cancelUrl: string;
    metadata: Json;
    baseUrl: string;
  }): Json {
    this.get(this.customers, p.customer, 'customer');
    this.get(this.prices, p.price, 'price');
    const id = newId('cs_test');
    const session = {
      id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      created: nowSeconds(),
      customer: p.customer,
      client_reference_id: p.clientReferenceId ?? null,
      subscription: null,
      metadata: p.metadata,
      success_url: p.successUrl,
      cancel_url: p.cancelUrl,
      url: `${p.baseUrl}/checkout/${id}`,
      price: p.price,
    };
    this.sessions.set(id, session);
    return session;
  }

  listSessions(filter: { customer?: string; status?: string }): Json[] {
    return [...this.sessions.values()].filter(
      (s) => (!filter.customer || s.customer === filter.customer) && (!filter.status || s.status === filter.status),
    );
  }

  /** Like Stripe: only an open session can be expired, and an expired one can no longer be paid. */
  expireSession(id: string): Json {
    const session = this.get<Json>(this.sessions, id, 'checkout session');
    if (session.status !== 'open') {
      throw new StripeStandinError(
        400,
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
        'checkout_session_not_open',
      );
    }
    Object.assign(session, { status: 'expired', url: null });
    return session;
  }

  /** Pays an open checkout session: a new active subscription and its first paid invoice. */
  completeSession(id: string): { session: Json; subscription: Json; invoice: Json } {
    const session = this.get<Json>(this.sessions, id, 'checkout session');
    if (session.status !== 'open')
      throw new StripeStandinError(400, 'This checkout session is no longer open.', 'checkout_session_not_open');
    const start = nowSeconds();
    const subId = newId('sub');
    const subscription: Json = {
      id: subId,
      object: 'subscription',
      customer: session.customer,
      status: 'active',
      created: start,
      start_date: start,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      metadata: session.metadata,
      latest_invoice: null,
      items: list([this.item(subId, session.price, start)], `/v1/subscription_items?subscription=${subId}`),
    };
    this.subscriptions.set(subId, subscription);
    const invoice = this.invoice(subscription, 'subscription_create', 'paid');
    Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: subId });
    return { session, subscription, invoice };
  }

  private item(subscription: string, priceId: string, start: number): Json {
    return {
      id: newId('si'),
      object: 'subscription_item',
      subscription,
      quantity: 1,
      created: start,
      price: this.get(this.prices, priceId, 'price'),
      current_period_start: start,
      current_period_end: addMonth(start),
    };
  }

  invoice(subscription: Json, billingReason: string, status: 'paid' | 'open'): Json {
    const item = subscription.items.data[0];
    const invoice = {
      id: newId('in'),
      object: 'invoice',
      customer: subscription.customer,
      status,
      billing_reason: billingReason,
      created: nowSeconds(),
      amount_due: item.price.unit_amount,
      amount_paid: status === 'paid' ? item.price.unit_amount : 0,
      currency: item.price.currency,
      attempted: true,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: subscription.id, metadata: subscription.metadata },
      },
      lines: list(
        [{ object: 'line_item', period: { start: item.current_period_start, end: item.current_period_end } }],
        '/v1/invoices/lines',
      ),
    };
    this.invoices.set(invoice.id, invoice);
    subscription.latest_invoice = invoice.id;
    return invoice;
  }

  /** Changes the subscription's item price (Stripe's `items[0][id]` + `items[0][price]`). */
  updateSubscription(id: string, items: { id?: string; price?: string }[], metadata: Json): Json {
    const sub = this.get<Json>(this.subscriptions, id, 'subscription');
    if (sub.status === 'canceled') {
      throw new StripeStandinError(
        400,
        'A canceled subscription can only update its cancellation_details and metadata.',
        'resource_missing',
      );
    }
    for (const change of items) {
      const item = sub.items.data.find((i: Json) => i.id === change.id);
      if (!item)
        throw new StripeStandinError(
          400,
          `Invalid subscription_item id: ${change.id}`,
          'resource_missing',
          'invalid_request_error',
          'items',
        );
      if (change.price) item.price = this.get(this.prices, change.price, 'price');
    }
    Object.assign(sub.metadata, metadata);
    return sub;
  }

  cancelSubscription(id: string): Json {
    const sub = this.get<Json>(this.subscriptions, id, 'subscription');
    if (sub.status === 'canceled') throw new StripeStandinError(400, 'This subscription is already canceled.', 'resource_missing');
    const at = nowSeconds();
    Object.assign(sub, { status: 'canceled', canceled_at: at, ended_at: at });
    return sub;
  }

  listSubscriptions(filter: { customer?: string; status?: string }): Json[] {
    return [...this.subscriptions.values()].filter(
      (s) =>
        (!filter.customer || s.customer === filter.customer) &&
        (filter.status === 'all' || (filter.status ? s.status === filter.status : s.status !== 'canceled')),
    );
  }

  /** Moves the subscription into its next period, as Stripe does at renewal whether or not payment succeeds. */
  advancePeriod(sub: Json): void {
    const item = sub.items.data[0];
    item.current_period_start = item.current_period_end;
    item.current_period_end = addMonth(item.current_period_start);
  }

  createPortalSession(p: { customer: string; returnUrl?: string; baseUrl: string }): Json {
    this.get(this.customers, p.customer, 'customer');
    const id = newId('bps');
    const session = {
      id,
      object: 'billing_portal.session',
      created: nowSeconds(),
      customer: p.customer,
      return_url: p.returnUrl ?? null,
      url: `${p.baseUrl}/portal/${id}`,
      livemode: false,
    };
    this.portalSessions.set(id, session);
    return session;
  }

  list = list;
}
