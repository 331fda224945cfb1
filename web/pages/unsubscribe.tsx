import { BrandBar } from '../components/brand-bar';
import { shortQuestion } from '../../core/delivery/links';

export interface UnsubscribePageProps {
  /** null: the token is unknown (or its timer was deleted). */
  question: string | null;
  emailOn: boolean;
  /** True right after this request changed the setting (the page then says so). */
  changed: boolean;
  token: string;
  appUrl: string;
}

/**
 * GET/POST /unsubscribe/:token: says whether the timer's emails are on, with one button to flip it. A GET only
 * shows the page (mail scanners follow links); the button, or a mail client's RFC 8058 one-click, POSTs.
 */
export function UnsubscribePage({ question, emailOn, changed, token, appUrl }: UnsubscribePageProps) {
  const action = `/unsubscribe/${encodeURIComponent(token)}`;
  return (
    <div className="app">
      <BrandBar appUrl={appUrl} />
      <main id="main">
        <section className="panel unsubscribe" aria-labelledby="unsubscribe-title">
          {question === null ? (
            <>
              <h1 id="unsubscribe-title">This unsubscribe link does not work</h1>
              <p>Its timer was deleted, or the link is incomplete. You can turn off any timer’s emails in Manage Timers.</p>
            </>
          ) : emailOn ? (
            <>
              <h1 id="unsubscribe-title">{changed ? 'Emails are on again' : 'Stop these emails?'}</h1>
              <p>
                {changed ? 'You will get emails' : 'You get emails'} when your timer “{shortQuestion(question)}” finds new or changed
                events.
              </p>
              <form method="post" action={action}>
                <button type="submit" className="button">
                  Unsubscribe
                </button>
              </form>
            </>
          ) : (
            <>
              <h1 id="unsubscribe-title">You are unsubscribed</h1>
              <p>
                Your timer “{shortQuestion(question)}” no longer sends you emails. It still runs, and its results stay in Manage Timers.
              </p>
              <form method="post" action={`${action}/undo`}>
                <button type="submit" className="button button--secondary">
                  Undo
                </button>
              </form>
            </>
          )}
          <p className="unsubscribe__back">
            <a className="button button--secondary" href={appUrl}>
              Back to Event Finder
            </a>
          </p>
        </section>
      </main>
    </div>
  );
}
