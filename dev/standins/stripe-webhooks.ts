import { createHmac } from 'node:crypto';
import { newId, nowSeconds } from './stripe-store';

export interface StripeEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  api_version: string;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: Record<string, any> };
}

export interface Delivery {
  eventId: string;
  type: string;
  status: number | 'network error';
}

/** Stripe's signature scheme: `t=<unix>,v1=HMAC-SHA256(secret, "<t>.<body>")`. */
export function signatureHeader(secret: string, body: string, timestamp = nowSeconds()): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/**
 * Sends signed events to the app's webhook endpoint one at a time in creation order (a queue, so a sender never waits
 * on a request that is itself waiting on the stand-in), retrying a failed delivery a few times as Stripe does.
 */
export class WebhookSender {
  readonly events: StripeEvent[] = [];
  readonly deliveries: Delivery[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(
    /** The app's webhook endpoint, e.g. http://localhost:8080/webhook. */
    private readonly endpoint: string,
    private readonly secret: string,
    private readonly unreachableRetryMs = 10_000,
  ) {}

  /** Records an event with a snapshot of `object`; queues its delivery unless `deliver` is false. */
  emit(type: string, object: Record<string, any>, deliver = true): { event: StripeEvent; delivered: Promise<void> } {
    const event: StripeEvent = {
      id: newId('evt'),
      object: 'event',
      type,
      created: nowSeconds(),
      api_version: '2026-10-28.endive',
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: structuredClone(object) },
    };
    this.events.push(event);
    if (!deliver) return { event, delivered: Promise.resolve() };
    const delivered = this.queue.then(() => this.deliverWithRetries(event));
    this.queue = delivered;
    return { event, delivered };
  }

  /** Resolves once every queued delivery has been attempted. */
  idle(): Promise<void> {
    return this.queue;
  }

  /** Sends one event now (used by tests to redeliver or reorder); returns the app's status. */
  async deliver(event: StripeEvent): Promise<number | 'network error'> {
    const body = JSON.stringify(event, null, 2);
    let status: number | 'network error';
    try {
      const res = await fetch(this.endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signatureHeader(this.secret, body),
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
        body,
      });
      await res.arrayBuffer();
      status = res.status;
    } catch {
      status = 'network error';
    }
    this.deliveries.push({ eventId: event.id, type: event.type, status });
    return status;
  }

  /**
   * An answer other than 2xx is retried 3 times (250, 500, 750 ms apart). An app that does not answer at all
   * is retried for longer (every 500 ms for `unreachableRetryMs`): under `make dev` the api restarts for a few
   * seconds after every file change, and a payment made then must still reach it.
   */
  private async deliverWithRetries(event: StripeEvent): Promise<void> {
    const giveUpAt = Date.now() + this.unreachableRetryMs;
    for (let failures = 0; ; ) {
      const status = await this.deliver(event);
      if (typeof status === 'number' && status < 300) return;
      if (typeof status === 'number') {
        if (++failures >= 4) return;
        await new Promise((r) => setTimeout(r, 250 * failures));
      } else {
        if (Date.now() >= giveUpAt) return;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }
}
