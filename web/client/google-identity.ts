/** The parts of Google's `google.accounts.id` (GSI) API the page uses. */
export interface GoogleIdApi {
  initialize(options: { client_id: string; callback: (response: CredentialResponse) => void }): void;
  renderButton(parent: HTMLElement, options: Record<string, string | number>): void;
  prompt(): void;
  disableAutoSelect?(): void;
}

export interface CredentialResponse {
  credential: string;
  select_by?: string;
}

declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleIdApi } };
  }
}

const POLL_MS = 50;
let initialized = false;

/**
 * Resolves with `google.accounts.id` once Google's script has run. The page loads the script (async) when it
 * renders signed out; after a logout on a page rendered signed in, the script is added here.
 */
export function whenGoogleReady(gsiUrl: string): { ready: Promise<GoogleIdApi>; cancel: () => void } {
  let timer: ReturnType<typeof setInterval> | undefined;
  const ready = new Promise<GoogleIdApi>((resolve) => {
    const check = () => {
      const api = window.google?.accounts?.id;
      if (!api) return false;
      clearInterval(timer);
      resolve(api);
      return true;
    };
    if (check()) return;
    if (!document.querySelector(`script[src="${CSS.escape(gsiUrl)}"]`)) {
      const script = document.createElement('script');
      script.src = gsiUrl;
      script.async = true;
      document.head.appendChild(script);
    }
    // Polling rather than onload: the page's own <script async> may already be loading or have loaded.
    timer = setInterval(check, POLL_MS);
  });
  return { ready, cancel: () => clearInterval(timer) };
}

/** Google asks for initialize() once per page; later renders of the button reuse that setup. */
export function initializeOnce(api: GoogleIdApi, clientId: string, callback: (response: CredentialResponse) => void): void {
  if (initialized) return;
  initialized = true;
  api.initialize({ client_id: clientId, callback });
}
