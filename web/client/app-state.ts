import { useSyncExternalStore } from 'react';
import type { BillingReply } from '../../core/contract/billing';

/** The spec's two views; there is no URL routing, the page switches by state. */
export type View = 'subscription' | 'home';

/** GET /api/account/billing's reply, as the page keeps it. */
export type BillingInfo = BillingReply;

export interface AppState {
  view: View;
  loggedIn: boolean;
  billing: BillingInfo | null;
  /** A sentence for the signed-out view, e.g. why the user was signed out. */
  notice?: string | null;
}

type Listener = () => void;

// One store per page: islands hydrate separately but share this module through the common chunk.
let state: AppState | null = null;
const listeners = new Set<Listener>();

function showView(view: View): void {
  if (typeof document === 'undefined') return;
  for (const section of document.querySelectorAll<HTMLElement>('[data-view]')) {
    section.hidden = section.dataset.view !== view;
  }
}

/** The current state, for code outside React (after an await, the closure's copy may be stale). */
export function currentAppState(): AppState | null {
  return state;
}

export function setAppState(patch: Partial<AppState>): void {
  if (!state) throw new Error('App state used before an island initialised it');
  const viewChanged = patch.view !== undefined && patch.view !== state.view;
  state = { ...state, ...patch };
  if (viewChanged) {
    showView(state.view);
    window.scrollTo({ top: 0 });
    // Move focus to the new view's heading so keyboard and screen-reader users land in the right place.
    document.querySelector<HTMLElement>(`[data-view="${state.view}"] [data-view-heading]`)?.focus();
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Reads the shared page state; `initial` is the server's state, used for rendering and hydration. */
export function useAppState(initial: AppState): AppState {
  if (typeof window !== 'undefined' && state === null) state = initial;
  return useSyncExternalStore(
    subscribe,
    () => state ?? initial,
    () => initial,
  );
}

/**
 * The signed-in user's billing, for parts that load after the page (their costs say how many searches are
 * left); null before an island has set the state, when signed out, or while billing is unknown.
 */
export function useBilling(): BillingInfo | null {
  return useSyncExternalStore(
    subscribe,
    () => (state?.loggedIn ? state.billing : null),
    () => null,
  );
}
