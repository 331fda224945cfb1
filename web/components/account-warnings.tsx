import { planOf } from '../../core/plans';
import { setAppState, type BillingInfo } from '../client/app-state';
import { formatDate } from '../client/format';
import { useHydrated } from '../hooks/use-hydrated';

/** At or below this many searches left the home view says so, before a search is refused. */
export const FEW_SEARCHES = 2;

/**
 * The spec's payment-failed banner, with the way to fix it: the billing portal of the signed-in user. The plan
 * is named as the cards name it ("keep using Plus").
 */
export function PaymentFailedBanner({ billing }: { billing: BillingInfo }) {
  if (billing.subscription_status !== 'payment failed') return null;
  return (
    <div className="banner banner--warning banner--action" role="alert">
      <p>⚠️ Your payment failed. Please update your billing info to keep using {planOf(billing.subscription_tier).name}.</p>
      {/* No checkout session to point at here: the server opens the portal of the signed-in user's customer. */}
      <form method="POST" action="/create-portal-session">
        <button type="submit" className="button button--secondary">
          Update billing info
        </button>
      </form>
    </div>
  );
}

/** Few or no searches left: said on the home view, where searches are spent, with when they renew and the plans. */
export function SearchesLeftNotice({ billing }: { billing: BillingInfo }) {
  const hydrated = useHydrated();
  if (billing.credits > FEW_SEARCHES) return null;
  // The date is in the browser's locale, so it is written once the page runs there.
  const renews = hydrated
    ? ` They renew on ${formatDate(billing.period_end)}${billing.credits <= 0 ? '; timers skip their runs until then' : ''}.`
    : '';
  const text =
    billing.credits <= 0
      ? `You have no searches left.${renews}`
      : `Only ${billing.credits} ${billing.credits === 1 ? 'search' : 'searches'} left.${renews}`;
  return (
    <div className="banner banner--warning banner--action" role="status">
      <p>{text}</p>
      <button type="button" className="button button--secondary" onClick={() => setAppState({ view: 'subscription' })}>
        See plans
      </button>
    </div>
  );
}

/** What a signed-in user must know before searching: a failed payment, and searches running out. */
export function AccountWarnings({ billing }: { billing: BillingInfo | null }) {
  if (!billing) return null;
  return (
    <>
      <PaymentFailedBanner billing={billing} />
      <SearchesLeftNotice billing={billing} />
    </>
  );
}
