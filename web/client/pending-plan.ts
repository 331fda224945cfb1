import { isTier, type Tier } from '../../core/plans';

/**
 * A plan chosen while signed out: the view goes home to sign in (the spec), and once signed in the choice
 * continues to its checkout or confirmation. Kept in sessionStorage, so it survives a sign-in that reloads the
 * page, stays with this tab, and is forgotten when the tab closes or after an hour.
 */
const KEY = 'eventfinder.pending-plan';
const KEEP_MS = 60 * 60 * 1000;

export function rememberPlan(tier: Tier): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ tier, at: Date.now() }));
  } catch {
    // Storage refused (a private window's quota, a policy): the person chooses the plan again after sign-in.
  }
}

function read(): Tier | null {
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    if (!saved || typeof saved !== 'object') return null;
    const { tier, at } = saved as { tier?: unknown; at?: unknown };
    return isTier(tier) && typeof at === 'number' && Date.now() - at < KEEP_MS ? tier : null;
  } catch {
    return null;
  }
}

/** True when a plan chosen signed out waits for the sign-in. */
export function hasPendingPlan(): boolean {
  return read() !== null;
}

/** The plan chosen signed out, once: reading it forgets it. */
export function takePendingPlan(): Tier | null {
  const tier = read();
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing stored, or storage refused.
  }
  return tier;
}
