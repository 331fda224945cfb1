import { useEffect, useRef } from 'react';
import { setAppState } from '../client/app-state';
import { refreshBilling } from '../client/billing';
import { initializeOnce, whenGoogleReady, type CredentialResponse } from '../client/google-identity';
import { postJson } from '../client/http';
import { hasPendingPlan } from '../client/pending-plan';
import { goToSearch } from '../client/search-focus';
import { replyJson, shapeOf } from '../client/replies';

export interface GoogleConfig {
  clientId: string;
  gsiUrl: string;
}

/** Google's sign-in button, rendered by Google's script into a placeholder; a page may show it more than once. */
export function GoogleButton({ clientId, gsiUrl }: GoogleConfig) {
  const placeholder = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const google = whenGoogleReady(gsiUrl);
    let mounted = true;
    void google.ready.then((api) => {
      if (!mounted || !placeholder.current) return;
      initializeOnce(api, clientId, signIn);
      api.renderButton(placeholder.current, { type: 'standard', theme: 'outline', size: 'large', text: 'signin_with', shape: 'pill' });
    });
    return () => {
      mounted = false;
      google.cancel();
    };
  }, [clientId, gsiUrl]);

  // Google's script owns this element's children; React never renders into it.
  return <div className="sign-in__button" ref={placeholder} />;
}

/** Logged-out home: 'Login with Google', why the user is signed out (when we know), and the button. */
export function GoogleSignIn({ google, notice }: { google: GoogleConfig; notice?: string | null }) {
  return (
    <section className="panel sign-in" aria-labelledby="sign-in-title">
      <h2 id="sign-in-title">Login with Google</h2>
      {notice ? (
        <p className="sign-in__notice" role="status">
          {notice}
        </p>
      ) : null}
      <p className="sign-in__lead">Sign in to search for events, save timers and manage your plan.</p>
      <GoogleButton {...google} />
    </section>
  );
}

/**
 * Google's callback: trade the ID token for a session. The spec only logs a failed login. Signed in, the person
 * goes on to what they came for: the plan they chose signed out (the plan picker continues it), else the
 * search with the question focused, from whichever view they signed in.
 */
async function signIn(response: CredentialResponse): Promise<void> {
  try {
    const res = await postJson('/api/auth/google', { token: response.credential });
    const { json, schemas } = await replyJson(res);
    const body = shapeOf(schemas.signInReplySchema, json);
    if (body?.status !== 'success') {
      console.error('Google login failed:', body?.error ?? `HTTP ${res.status}`);
      return;
    }
    setAppState({ loggedIn: true, notice: null });
    if (!hasPendingPlan()) goToSearch();
    await refreshBilling();
  } catch (err) {
    console.error('Google login failed:', err);
  }
}
