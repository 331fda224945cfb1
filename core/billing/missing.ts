/**
 * True for Stripe's "No such customer / subscription" answer: the id we stored is unknown to the account the
 * secret key belongs to (switched from test to live keys, a different account, an object deleted by hand).
 * Such an id is treated as gone rather than as an outage, so the user can start over instead of being stuck.
 */
export function isMissingInStripe(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'resource_missing';
}
