import { useEffect, useState } from 'react';
import { PLANS, type Plan } from '../../core/plans';
import { currentAppState, setAppState, useAppState, type AppState, type BillingInfo } from '../client/app-state';
import { pollBilling, refreshBilling } from '../client/billing';
import { searchesLeft, usedThisMonth } from '../client/format';
import { apiFetch, errorText, postJson } from '../client/http';
import { readReply, replyJson, shapeOf } from '../client/replies';
import { PaymentFailedBanner } from '../components/account-warnings';
import { GoogleButton, type GoogleConfig } from '../components/google-sign-in';
import { PlanCard } from '../components/plan-card';
import { LazyApiTokens } from '../components/lazy-api-tokens';
import { YourData } from '../components/your-data';

export interface PlanPickerProps {
  initial: AppState;
  checkout: { success: boolean; sessionId: string; canceled: boolean };
  google: GoogleConfig;
}

/** The spec's note for `?canceled=true`: kept in state, not shown. */
export const CANCELED_NOTE = "Order canceled -- continue to shop around and checkout when you're ready.";

const CHECKOUT_PARAMS = ['success', 'session_id', 'canceled'];

/** Switching to free cancels the paid subscription; the outcome is told in an alert, as the spec says. */
async function cancelToFree(): Promise<void> {
  try {
    const res = await apiFetch('/cancel-subscription', { method: 'POST' });
    // A refusal has the reply's own shape ({success: false, message}); other errors answer {error}.
    const { json, schemas } = await replyJson(res);
    const reply = shapeOf(schemas.cancelReplySchema, json);
    if (res.ok && reply?.success) {
      window.alert('✅ Subscription canceled. You are now on the Free plan.');
    } else if (res.status !== 401) {
      const message = reply?.message ?? shapeOf(schemas.errorReplySchema, json)?.error ?? `the server answered ${res.status}`;
      window.alert(`❌ Failed to cancel subscription: ${message}`);
    }
  } catch (err) {
    window.alert(`❌ Failed to cancel subscription: ${errorText(err)}`);
  }
  await refreshBilling();
}

/** Paid plans: checkout (leaves the page), or an in-place switch the webhook confirms shortly after. */
async function switchToPaid(plan: Plan): Promise<'left' | 'done'> {
  try {
    const res = await postJson('/create-checkout-session', { lookup_key: plan.lookupKey });
    const data = await readReply(res, (s) => s.checkoutReplySchema);
    if (data.url) {
      window.location.href = data.url;
      return 'left';
    }
    if (data.message === 'Subscription updated') {
      const billing = await pollBilling((b) => b.subscription_tier === plan.tier);
      if (billing) setAppState({ billing });
      else console.warn(`Billing still does not show the ${plan.tier} plan after 5 checks.`);
    } else if (data.message !== 'Already on selected plan') {
      console.log('Checkout reply:', data);
    }
  } catch (err) {
    console.warn('Checkout failed:', err);
  }
  return 'done';
}

/** Opens the Stripe billing portal: a plain form, so it works like a link and the server redirects. */
function ManageBilling({ sessionId, primary }: { sessionId?: string; primary?: boolean }) {
  return (
    <form method="POST" action="/create-portal-session" className="manage-billing">
      {sessionId ? <input type="hidden" name="session_id" value={sessionId} /> : null}
      <button type="submit" className={primary ? 'button' : 'button button--secondary'}>
        Manage Billing
      </button>
    </form>
  );
}

/** Above the plans for a first visit: what the product does, and the way in. */
function Intro({ google }: { google: GoogleConfig }) {
  return (
    <section className="intro" aria-labelledby="intro-title">
      <div className="intro__text">
        <h2 id="intro-title" className="intro__title">
          Event Finder
        </h2>
        <p className="intro__lead">
          Ask about conferences, meetups and other events in your own words and read the answer as it is written. Timers repeat a question
          every day or week and keep the results for you.
        </p>
      </div>
      <div className="intro__sign-in">
        <GoogleButton {...google} />
      </div>
    </section>
  );
}

/** The subscription view: intro, banners, plan cards, credits badge, checkout return panel and Back. */
export default function PlanPicker({ initial, checkout, google }: PlanPickerProps) {
  const app = useAppState(initial);
  const [busy, setBusy] = useState(false);
  // Read once from the query string on load (spec section 2); the note is state only.
  const [checkoutState] = useState(() => ({
    success: checkout.success,
    sessionId: checkout.sessionId,
    message: checkout.canceled ? CANCELED_NOTE : '',
  }));
  const billing: BillingInfo | null = app.loggedIn ? app.billing : null;
  const tier = billing?.subscription_tier;

  // The panel is on screen now; the address loses the checkout parameters so a reload does not show it again.
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!CHECKOUT_PARAMS.some((p) => url.searchParams.has(p))) return;
    for (const p of CHECKOUT_PARAMS) url.searchParams.delete(p);
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  }, []);

  // Back from checkout, the webhook may trail the redirect by a moment: follow billing until the plan shows.
  useEffect(() => {
    if (!checkoutState.success || !initial.loggedIn || initial.billing?.subscription_tier !== 'free') return;
    void pollBilling((b) => b.subscription_tier !== 'free').then((b) => b && setAppState({ billing: b }));
  }, [checkoutState.success, initial]);

  async function choose(plan: Plan): Promise<void> {
    if (!app.loggedIn) {
      setAppState({ view: 'home' });
      return;
    }
    if (busy || plan.tier === tier) return;
    setBusy(true);
    let left = false;
    try {
      // The plan may have changed in another tab since this one loaded: decide on the server's word.
      const fresh = await refreshBilling();
      if (!currentAppState()?.loggedIn) return;
      const current = fresh?.subscription_tier ?? tier;
      if (plan.tier === current) return;
      if (current !== undefined && current !== 'free' && !window.confirm(`Are you sure you want to switch to the ${plan.tier} plan?`)) {
        return;
      }
      if (plan.lookupKey === null) await cancelToFree();
      else left = (await switchToPaid(plan)) === 'left';
    } finally {
      // Leaving for checkout: keep the cards disabled until the browser navigates.
      if (!left) setBusy(false);
    }
  }

  return (
    <div className="plan-picker" data-checkout-note={checkoutState.message || undefined}>
      {app.loggedIn ? null : <Intro google={google} />}
      <p className="banner banner--promo">
        <strong>Never miss the next big event.</strong> Upgrade for more searches every month, cancel any time.
      </p>
      {billing ? <PaymentFailedBanner billing={billing} /> : null}
      <header className="view-header">
        <h1 tabIndex={-1} data-view-heading>
          Choose Your Plan
        </h1>
        {billing ? (
          <div className="view-header__account">
            <p className="credits-badge" aria-live="polite">
              {searchesLeft(billing.credits)}
            </p>
            {usedThisMonth(billing) ? <p className="credits-note">{usedThisMonth(billing)}</p> : null}
            {billing.subscription_tier !== 'free' && !checkoutState.success ? <ManageBilling /> : null}
          </div>
        ) : null}
      </header>
      {checkoutState.success ? (
        <section className="panel checkout-success" aria-labelledby="checkout-success-title">
          <h2 id="checkout-success-title">Subscription successful!</h2>
          <p>Thank you. Your new plan and its monthly searches are ready to use.</p>
          <ManageBilling sessionId={checkoutState.sessionId} primary />
        </section>
      ) : null}
      <ul className="plan-grid" aria-label="Plans" aria-busy={busy}>
        {PLANS.map((plan) => (
          <PlanCard key={plan.tier} plan={plan} current={plan.tier === tier} busy={busy} onChoose={(p) => void choose(p)} />
        ))}
      </ul>
      {app.loggedIn ? <YourData /> : null}
      {app.loggedIn ? <LazyApiTokens /> : null}
      <button type="button" className="button button--secondary" onClick={() => setAppState({ view: 'home' })}>
        Back
      </button>
    </div>
  );
}
