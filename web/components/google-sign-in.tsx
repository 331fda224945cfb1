import { useEffect, useRef } from 'react';
import { setAppState, type BillingInfo } from '../client/app-state';
import { initializeOnce, whenGoogleReady, type CredentialResponse } from '../client/google-identity';
import { apiFetch, postJson } from '../client/http';

/** Logged-out home: the Google sign-in button, rendered by Google's script into the placeholder. */
export function GoogleSignIn({ clientId, gsiUrl }: { clientId: string; gsiUrl: string }) {
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

  return (
    <section className="panel sign-in" aria-labelledby="sign-in-title">
      <h2 id="sign-in-title">Login with Google</h2>
      <p className="sign-in__lead">Sign in to search for events, save timers and manage your plan.</p>
      {/* Google's script owns this element's children; React never renders into it. */}
      <div className="sign-in__button" ref={placeholder} />
    </section>
  );
}

/** Google's callback: trade the ID token for a session. The spec only logs a failed login. */
async function signIn(response: CredentialResponse): Promise<void> {
  try {
    const res = await postJson('/api/auth/google', { token: response.credential });
    const body = (await res.json().catch(() => ({}))) as { status?: string; error?: string };
    if (body.status !== 'success') {
      console.error('Google login failed:', body.error ?? `HTTP ${res.status}`);
      return;
    }
    setAppState({ loggedIn: true });
    await loadBilling();
  } catch (err) {
    console.error('Google login failed:', err);
  }
}

/** Fills the credits badge and plan after sign-in; a failure leaves it empty (only logged, per spec). */
async function loadBilling(): Promise<void> {
  try {
    const res = await apiFetch('/api/account/billing');
    if (!res.ok) return;
    setAppState({ billing: (await res.json()) as BillingInfo });
  } catch (err) {
    console.error('Could not load billing info:', err);
  }
}
