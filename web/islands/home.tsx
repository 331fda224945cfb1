import { useEffect } from 'react';
import { setAppState, useAppState, type AppState } from '../client/app-state';
import { apiFetch } from '../client/http';
import { followTimerLink } from '../client/timer-link';
import { AccountWarnings } from '../components/account-warnings';
import { EventSearch } from '../components/event-search';
import { GoogleSignIn, type GoogleConfig } from '../components/google-sign-in';

export interface HomeProps {
  initial: AppState;
  google: GoogleConfig;
}

/** The home view: Subscription button, and either Google sign-in or the event search screen. */
export default function Home({ initial, google }: HomeProps) {
  const app = useAppState(initial);

  // A link to a timer (`/#timer-<id>`, from a digest email) asks for that timer: home, not the plan view the
  // page starts on; Manage Timers then opens at it, after sign-in when needed. Read after hydration, because
  // the server never sees the fragment.
  useEffect(() => {
    const follow = () => {
      if (followTimerLink()) setAppState({ view: 'home' });
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);

  return (
    <div className="home">
      <nav className="topbar" aria-label="Account">
        <button type="button" className="button button--secondary" onClick={() => setAppState({ view: 'subscription' })}>
          Subscription
        </button>
        {app.loggedIn ? <LogoutButton /> : null}
      </nav>
      <h1 className="home__title" tabIndex={-1} data-view-heading>
        Event Finder
        <span className="home__tagline">Conferences and meetups, found for you</span>
      </h1>
      {app.loggedIn ? <AccountWarnings billing={app.billing} /> : null}
      {app.loggedIn ? <EventSearch billing={app.billing} /> : <GoogleSignIn google={google} notice={app.notice} />}
    </div>
  );
}

function LogoutButton() {
  return (
    <button type="button" className="button button--secondary" onClick={() => void logout()}>
      Logout
    </button>
  );
}

/** Ends the session on the server first; the spec only logs a failed logout and keeps the user signed in. */
async function logout(): Promise<void> {
  try {
    const res = await apiFetch('/api/logout');
    if (!res.ok) {
      console.error('Logout failed:', await res.text());
      return;
    }
    setAppState({ loggedIn: false, billing: null, notice: null });
    // The Logout button is gone; keep keyboard focus inside the home view.
    document.querySelector<HTMLElement>('[data-view="home"] [data-view-heading]')?.focus();
  } catch (err) {
    console.error('Logout failed:', err);
  }
}
