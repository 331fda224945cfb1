import { currentAppState, setAppState } from './app-state';
import { preloadReplySchemas } from './replies';

export const SESSION_ENDED = 'Your session has ended. Please sign in again to continue.';

/**
 * fetch with the session cookie; every call of the page goes through here. A 401 means the session is gone
 * (expired, or logged out in another tab): the page switches to the signed-out view and says why, wherever
 * the call came from. The sign-in call itself answers 401 for a refused token, which is not that.
 */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.body && typeof init.body === 'string' && !headers.has('content-type')) {
    headers.set('content-type', 'application/json');
  }
  // Most replies are read through the contract schemas: fetch those alongside the first request.
  preloadReplySchemas();
  const res = await fetch(path, { ...init, headers, credentials: 'include' });
  if (res.status === 401 && !path.startsWith('/api/auth/') && currentAppState()?.loggedIn) {
    setAppState({ loggedIn: false, billing: null, view: 'home', notice: SESSION_ENDED });
  }
  return res;
}

export async function postJson(path: string, body: unknown): Promise<Response> {
  return apiFetch(path, { method: 'POST', body: JSON.stringify(body) });
}

export const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
