import { createStripe } from '../clients';
import { loadConfigFromProcess } from '../config';
import { ensurePlanPrices } from './plan-prices';

/** `npm run stripe:setup`: creates the plans' products and prices in the configured Stripe account if missing. */
async function main(): Promise<void> {
  const config = loadConfigFromProcess();
  if (config.standins.includes('STRIPE_SECRET_KEY')) {
    console.log(`STRIPE_SECRET_KEY is unset: setting up the local stand-in at ${config.stripe.apiUrl}.`);
  }
  const result = await ensurePlanPrices(createStripe(config));
  for (const [lookupKey, outcome] of Object.entries(result)) {
    console.log(`${lookupKey}: ${outcome === 'created' ? 'created' : 'already exists, left as it is'}`);
  }
}

main().catch((err) => {
  console.error(`stripe:setup failed: ${err instanceof Error ? err.message : err}`);
  console.error('Check STRIPE_SECRET_KEY (and STRIPE_API_URL) and run it again; it is safe to repeat.');
  process.exit(1);
});
