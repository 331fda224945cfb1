import * as z from 'zod/mini';
import { LOOKUP_KEYS, type LookupKey, TIERS, type Tier } from '../plans';

// The plan table (core/plans.ts) is the one list of tiers and lookup keys; zod wants them as tuples.
const tiers = TIERS as [Tier, ...Tier[]];
const lookupKeys = LOOKUP_KEYS as [LookupKey, ...LookupKey[]];
const CHOOSE_PAID_PLAN = `Choose a paid plan: lookup_key must be one of ${LOOKUP_KEYS.join(', ')}.`;

/**
 * GET /api/account/billing: the spec's three fields, plus when the allowance resets, its size, and how many
 * searches this period has used (more than the allowance after a switch to a smaller plan; `credits` stops at 0).
 */
export const billingReplySchema = z.object({
  subscription_tier: z.enum(tiers),
  credits: z.number(),
  subscription_status: z.string(),
  period_end: z.string(),
  allowance: z.number(),
  searches_used: z.number(),
});
export type BillingReply = z.infer<typeof billingReplySchema>;

/** POST /create-checkout-session {lookup_key}. */
export const checkoutRequestSchema = z.object({ lookup_key: z.enum(lookupKeys, { error: CHOOSE_PAID_PLAN }) }, { error: CHOOSE_PAID_PLAN });

/** Its reply: a url to go to, or a message ('Subscription updated', 'Already on selected plan'). */
export const checkoutReplySchema = z.object({ url: z.optional(z.string()), message: z.optional(z.string()) });
export type CheckoutReply = z.infer<typeof checkoutReplySchema>;

/** POST /cancel-subscription. */
export const cancelReplySchema = z.object({ success: z.boolean(), message: z.string() });
export type CancelReply = z.infer<typeof cancelReplySchema>;
