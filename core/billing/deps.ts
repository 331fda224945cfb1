import type Stripe from 'stripe';
import type { Sql } from '../../db/client';
import type { Config } from '../config';

/** What the billing functions need: the database, the Stripe client and the app's public URL. */
export interface BillingDeps {
  sql: Sql;
  stripe: Stripe;
  config: Pick<Config, 'appUrl'>;
}
