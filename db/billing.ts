import type { SubscriptionState } from '../core/billing/subscription-state';
import type { Tier } from '../core/plans';
import type { Sql, Tx } from './client';

export interface BillingAccount {
  userId: number;
  email: string;
  tier: Tier;
  status: string;
  periodStart: Date;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  createdAt: Date;
}

type Row = {
  user_id: string;
  email: string;
  tier: Tier;
  status: string;
  period_start: Date;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  created_at: Date;
};

const toAccount = (r: Row): BillingAccount => ({
  userId: Number(r.user_id),
  email: r.email,
  tier: r.tier,
  status: r.status,
  periodStart: r.period_start,
  stripeCustomerId: r.stripe_customer_id,
  stripeSubscriptionId: r.stripe_subscription_id,
  createdAt: r.created_at,
});

/** Reads a user's account without locking it. */
export async function findBillingAccount(sql: Sql | Tx, userId: number): Promise<BillingAccount | null> {
  const [row] = await sql<Row[]>`
    select a.user_id, u.email, a.tier, a.status, a.period_start, a.stripe_customer_id, a.stripe_subscription_id, a.created_at
    from accounts a join users u on u.id = a.user_id where a.user_id = ${userId}`;
  return row ? toAccount(row) : null;
}

/** Locks a user's account row until the transaction ends, so billing changes to it happen one at a time. */
export async function lockAccountByUser(tx: Tx, userId: number): Promise<BillingAccount | null> {
  const [row] = await tx<Row[]>`
    select a.user_id, u.email, a.tier, a.status, a.period_start, a.stripe_customer_id, a.stripe_subscription_id, a.created_at
    from accounts a join users u on u.id = a.user_id where a.user_id = ${userId} for update of a`;
  return row ? toAccount(row) : null;
}

export async function lockAccountByCustomer(tx: Tx, customerId: string): Promise<BillingAccount | null> {
  const [row] = await tx<Row[]>`
    select a.user_id, u.email, a.tier, a.status, a.period_start, a.stripe_customer_id, a.stripe_subscription_id, a.created_at
    from accounts a join users u on u.id = a.user_id where a.stripe_customer_id = ${customerId} for update of a`;
  return row ? toAccount(row) : null;
}

/** Forgets a subscription that Stripe no longer knows: the account is free again, usage kept. */
export async function forgetStripeSubscription(tx: Tx, userId: number): Promise<void> {
  await tx`update accounts set tier = 'free', status = 'active', stripe_subscription_id = null, updated_at = now()
           where user_id = ${userId}`;
}

export async function setStripeCustomer(tx: Tx, userId: number, customerId: string): Promise<void> {
  await tx`update accounts set stripe_customer_id = ${customerId}, updated_at = now() where user_id = ${userId}`;
}

/**
 * Records a Stripe event id; false when it was already recorded (a redelivery). Call it in the transaction that
 * applies the event: a concurrent duplicate waits on the primary key until this one commits or rolls back.
 */
export async function recordStripeEvent(tx: Tx, event: { id: string; type: string; created: number }): Promise<boolean> {
  const rows = await tx`
    insert into stripe_events (id, type, created_at) values (${event.id}, ${event.type}, ${new Date(event.created * 1000)})
    on conflict (id) do nothing returning id`;
  return rows.length === 1;
}

/**
 * Applies a subscription's current state to the locked account. Plan changes keep searches_used; only a paid
 * renewal (`newPeriod`, from invoice.paid) whose period starts after the account's starts a fresh allowance.
 * Returns what changed, for logs and tests.
 */
export async function applySubscriptionState(
  tx: Tx,
  account: BillingAccount,
  state: SubscriptionState,
  options: { newPeriod: boolean; syncedAt: Date },
): Promise<'attached' | 'renewed' | 'updated' | 'ended' | 'unchanged'> {
  const mine = account.stripeSubscriptionId === state.subscriptionId;
  if (state.kind === 'ignored') return 'unchanged';
  if (state.kind === 'ended') {
    // The end of a subscription the account has already left (an older one) changes nothing.
    if (!mine) return 'unchanged';
    await tx`update accounts set tier = 'free', status = 'active', stripe_subscription_id = null,
               stripe_synced_at = ${options.syncedAt}, updated_at = now()
             where user_id = ${account.userId}`;
    return 'ended';
  }
  if (!mine) {
    await tx`update accounts set tier = ${state.tier}, status = ${state.status}, stripe_subscription_id = ${state.subscriptionId},
               period_start = ${state.periodStart}, period_end = ${state.periodEnd},
               stripe_synced_at = ${options.syncedAt}, updated_at = now()
             where user_id = ${account.userId}`;
    return 'attached';
  }
  if (options.newPeriod && state.status === 'active' && state.periodStart > account.periodStart) {
    await tx`update accounts set tier = ${state.tier}, status = ${state.status}, searches_used = 0, usage_epoch = usage_epoch + 1,
               period_start = ${state.periodStart}, period_end = ${state.periodEnd},
               stripe_synced_at = ${options.syncedAt}, updated_at = now()
             where user_id = ${account.userId}`;
    return 'renewed';
  }
  await tx`update accounts set tier = ${state.tier}, status = ${state.status},
             stripe_synced_at = greatest(stripe_synced_at, ${options.syncedAt}), updated_at = now()
           where user_id = ${account.userId}`;
  return 'updated';
}
