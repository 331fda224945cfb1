import { useEffect, useRef, useState } from 'react';
import { PLANS, type Plan, planOf } from '../../core/plans';
import { currentAppState, setAppState, useAppState, type AppState, type BillingInfo } from '../client/app-state';
import { pollBilling, refreshBilling } from '../client/billing';
import { planChangeNote, searchesLeft, usedThisMonth } from '../client/format';
import { apiFetch, errorText, postJson } from '../client/http';
import { rememberPlan, takePendingPlan } from '../client/pending-plan';
import { readReply, replyJson, shapeOf } from '../client/replies';
import { goToSearch } from '../client/search-focus';
import { PaymentFailedBanner } from '../components/account-warnings';
import { ConfirmDialog } from '../components/confirm-dialog';
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

/** Signed in, the plans view still comes first (the spec); its first action is the search, which most came for. */
function SearchFirst() {
  return (
    <section className="search-first" aria-label="Search">
      <p className="search-first__text">Ask about conferences and meetups in your own words.</p>
      <button type="button" className="button" onClick={goToSearch}>
        Go to search
      </button>
    </section>
  );
}

/** A plan change waiting for the person's answer: the plan asked about, the one it leaves, what it does to the searches. */
interface PlanQuestion {
  plan: Plan;
  from: Plan;
  note: string;
}

/** The subscription view: intro, banners, plan cards, credits badge, checkout return panel and Back. */
export default function PlanPicker({ initial, checkout, google }: PlanPickerProps) {
  const app = useAppState(initial);
  const [busy, setBusy] = useState(false);
  // The last question stays rendered after its answer, so the closing dialog never shows empty.
  const [question, setQuestion] = useState<PlanQuestion | null>(null);
  const [asking, setAsking] = useState(false);
  const answerQuestion = useRef<((yes: boolean) => void) | null>(null);
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

  /** Asks in the page's own dialog; resolves with the answer once a button (or Escape) gives it. */
  function ask(q: PlanQuestion): Promise<boolean> {
    return new Promise((resolve) => {
      answerQuestion.current = resolve;
      setQuestion(q);
      setAsking(true);
    });
  }

  function answer(yes: boolean) {
    answerQuestion.current?.(yes);
    answerQuestion.current = null;
    setAsking(false);
  }

  /** Changes to the chosen plan; 'current' when it already is the plan (nothing to do). */
  async function choose(plan: Plan): Promise<'current' | 'changed' | 'kept'> {
    if (!app.loggedIn) {
      // The spec sends a signed-out choice home to sign in; the choice waits there for the sign-in.
      rememberPlan(plan.tier);
      setAppState({ view: 'home', notice: `Sign in to continue with the ${plan.name} plan.` });
      return 'kept';
    }
    if (plan.tier === tier) return 'current';
    if (busy) return 'kept';
    setBusy(true);
    let left = false;
    try {
      // The plan may have changed in another tab since this one loaded: decide on the server's word.
      const fresh = await refreshBilling();
      if (!currentAppState()?.loggedIn) return 'kept';
      const current = fresh?.subscription_tier ?? tier;
      if (plan.tier === current) return 'current';
      if (current !== undefined && current !== 'free') {
        // The spec's question, then what the change does to this month's searches.
        const note = fresh ? planChangeNote(fresh, plan) : '';
        if (!(await ask({ plan, from: planOf(current), note }))) return 'kept';
      }
      if (plan.lookupKey === null) await cancelToFree();
      else left = (await switchToPaid(plan)) === 'left';
      return 'changed';
    } finally {
      // Leaving for checkout: keep the cards disabled until the browser navigates.
      if (!left) setBusy(false);
    }
  }

  // Signed in with a plan chosen while signed out: continue to its checkout (or its confirmation) on the plans;
  // when it already is the plan, to the search as after any sign-in.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a sign-in (or a page signed in) continues a choice
  useEffect(() => {
    if (!app.loggedIn) return;
    const pending = takePendingPlan();
    if (!pending) return;
    setAppState({ view: 'subscription' });
    void choose(planOf(pending)).then((outcome) => {
      if (outcome === 'current') goToSearch();
    });
  }, [app.loggedIn]);

  return (
    <div className="plan-picker" data-checkout-note={checkoutState.message || undefined}>
      {app.loggedIn ? <SearchFirst /> : <Intro google={google} />}
      {/* Something to fix comes before an offer. */}
      {billing ? <PaymentFailedBanner billing={billing} /> : null}
      <p className="banner banner--promo">
        <strong>Never miss the next big event.</strong> Upgrade for more searches every month, cancel any time.
      </p>
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
      <ConfirmDialog
        open={asking}
        title={question ? `Are you sure you want to switch to the ${question.plan.tier} plan?` : ''}
        confirmLabel={question ? `Switch to ${question.plan.name}` : ''}
        cancelLabel={question ? `Keep ${question.from.name}` : ''}
        danger={question ? question.plan.searchesPerMonth < question.from.searchesPerMonth : false}
        onConfirm={() => answer(true)}
        onCancel={() => answer(false)}
      >
        {question?.note ? <p>{question.note}</p> : null}
      </ConfirmDialog>
      {app.loggedIn ? <YourData /> : null}
      {app.loggedIn ? <LazyApiTokens /> : null}
      <button type="button" className="button button--secondary" onClick={() => setAppState({ view: 'home' })}>
        Back
      </button>
    </div>
  );
}
