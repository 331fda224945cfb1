import { formatPrice, type Plan } from '../../core/plans';

export interface PlanCardProps {
  plan: Plan;
  current: boolean;
  busy: boolean;
  onChoose: (plan: Plan) => void;
}

function CardBody({ plan, current }: { plan: Plan; current: boolean }) {
  return (
    <>
      <span className="plan-card__name">{plan.name}</span>
      <span className="plan-card__price">
        {`$${(plan.priceCents / 100).toFixed(2).replace(/\.00$/, '')}`}
        <span className="plan-card__period">{plan.priceCents === 0 ? ' no charge' : '/month'}</span>
      </span>
      <span className="plan-card__allowance">{plan.searchesPerMonth} searches per month</span>
      {current ? (
        <span className="plan-card__badge">
          <span>Current plan</span>
        </span>
      ) : (
        // The button's label already names the plan; this only shows sighted users that the card is a control.
        <span className="plan-card__cta" aria-hidden="true">
          Choose {plan.name}
        </span>
      )}
    </>
  );
}

/**
 * One plan. The current plan is plain content (the spec: not clickable), so it is neither a dead button in the
 * tab order nor a control that looks pressable; every other plan is a button.
 */
export function PlanCard({ plan, current, busy, onChoose }: PlanCardProps) {
  const label = `${plan.name} plan, ${formatPrice(plan)}, ${plan.searchesPerMonth} searches per month`;
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
          disabled={busy}
          aria-label={`Choose the ${label}`}
          onClick={() => onChoose(plan)}
        >
          <CardBody plan={plan} current={false} />
        </button>
      )}
    </li>
  );
}
