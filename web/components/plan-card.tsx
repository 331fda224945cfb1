import type { Plan } from '../../core/plans';

export interface PlanCardProps {
  plan: Plan;
  current: boolean;
  busy: boolean;
  onChoose: (plan: Plan) => void;
}

/** What a card shows, in the words its button's name repeats (a spoken name holds the visible text, WCAG 2.5.3). */
function cardText(plan: Plan) {
  return {
    price: `$${(plan.priceCents / 100).toFixed(2).replace(/\.00$/, '')}`,
    period: plan.priceCents === 0 ? ' no charge' : '/month',
    allowance: `${plan.searchesPerMonth} searches per month`,
  };
}

function CardBody({ plan, current }: { plan: Plan; current: boolean }) {
  const text = cardText(plan);
  return (
    <>
      {/* Spaces between the parts: the text reads "Free $0 no charge 10 searches…", as the button's name says. */}
      <span className="plan-card__name">{plan.name}</span>{' '}
      <span className="plan-card__price">
        {text.price}
        <span className="plan-card__period">{text.period}</span>
      </span>{' '}
      <span className="plan-card__allowance">{text.allowance}</span>{' '}
      {current ? (
        <span className="plan-card__badge">
          <span>Current plan</span>
        </span>
      ) : (
        // The button's name already says it; this only shows sighted users that the card is a control. Drawn
        // by CSS from data-label, so it is not text inside the button that its name would have to repeat.
        <span className="plan-card__cta" aria-hidden="true" data-label={`Choose ${plan.name}`} />
      )}
    </>
  );
}

/**
 * One plan. The current plan is plain content (the spec: not clickable), so it is neither a dead button in the
 * tab order nor a control that looks pressable; every other plan is a button.
 */
export function PlanCard({ plan, current, busy, onChoose }: PlanCardProps) {
  const text = cardText(plan);
  // The name starts with the action, then says what the card shows, as it shows it.
  const label = `${plan.name} plan: ${plan.name} ${text.price}${text.period} ${text.allowance}`;
  return (
    <li className={`plan-card plan-card--${plan.tier}${current ? ' plan-card--current' : ''}`} data-tier={plan.tier}>
      {current ? (
        // Plain content, read as it shows: name, price, allowance and the 'Current plan' badge.
        <div className="plan-card__body">
          <CardBody plan={plan} current />
        </div>
      ) : (
        <button
          type="button"
          className="plan-card__body plan-card__button"
          // Not `disabled`: a disabled button drops focus, and the plan question returns it here when answered.
          aria-disabled={busy || undefined}
          aria-label={`Choose the ${label}`}
          onClick={() => {
            if (!busy) onChoose(plan);
          }}
        >
          <CardBody plan={plan} current={false} />
        </button>
      )}
    </li>
  );
}
