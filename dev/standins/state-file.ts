import path from 'node:path';

/**
 * The Stripe stand-in's saved account in `dir`: one file per database, since the database holds the customer
 * and subscription ids that must still exist after a restart.
 */
export function stripeStateFileIn(dir: string, databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const name = `${url.hostname}-${url.port || '5432'}-${decodeURIComponent(url.pathname.slice(1))}`.replace(/[^A-Za-z0-9._-]+/g, '_');
  return path.join(dir, `stripe-standin-${name}.json`);
}
