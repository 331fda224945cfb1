import type { AppState } from '../client/app-state';
import { Faq } from '../components/faq';
import { Island } from '../island';

export interface IndexPageProps {
  state: AppState;
  checkout: { success: boolean; sessionId: string; canceled: boolean };
  google: { clientId: string; gsiUrl: string };
  supportEmail: string;
}

/** GET /: both views are rendered; the subscription view is shown first, as the spec says. */
export function IndexPage({ state, checkout, google, supportEmail }: IndexPageProps) {
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <main id="main">
        <section data-view="subscription" hidden={state.view !== 'subscription'} aria-label="Subscription">
          <Island name="plan-picker" props={{ initial: state, checkout, google }} />
          <Faq supportEmail={supportEmail} />
        </section>
        <section data-view="home" hidden={state.view !== 'home'} aria-label="Home">
          <Island name="home" props={{ initial: state, google }} />
        </section>
      </main>
      <footer className="site-footer">
        <p>
          Questions or feedback? Contact <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
        </p>
      </footer>
    </div>
  );
}
