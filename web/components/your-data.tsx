import { useState } from 'react';
import { setAppState } from '../client/app-state';
import { apiFetch, errorText } from '../client/http';
import { replyJson, shapeOf } from '../client/replies';
import { ConfirmDialog } from './confirm-dialog';

/**
 * "Your data" (docs/decisions/data-lifecycle.md): a download of everything the service keeps about the user, and deleting the
 * account, which cancels a paid plan and removes every timer, search and run.
 */
export function YourData() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);

  async function deleteAccount() {
    setBusy(true);
    setError(null);
    try {
      const res = await apiFetch('/api/account', { method: 'DELETE' });
      if (res.ok) {
        // Signed out: this panel and its dialog leave the page, focus goes to the home view's heading.
        setAppState({
          loggedIn: false,
          billing: null,
          view: 'home',
          notice: 'Your account is deleted. A confirmation email is on its way.',
        });
        return;
      }
      const { json, schemas } = await replyJson(res);
      setError(shapeOf(schemas.errorReplySchema, json)?.error ?? `The account was not deleted (the server answered ${res.status}).`);
    } catch (err) {
      console.warn('Account not deleted:', errorText(err));
      setError('The account was not deleted: the server could not be reached. Please try again.');
    } finally {
      setBusy(false);
    }
    // Not deleted: the dialog closes onto its button, with the reason beside it.
    setAsking(false);
  }

  return (
    <section className="panel your-data" aria-labelledby="your-data-title">
      <h2 id="your-data-title">Your data</h2>
      <p className="your-data__lead">A copy of everything kept about you, or the end of your account.</p>
      <div className="actions your-data__actions">
        <a className="button button--secondary" href="/api/account/export" download>
          Export my data (JSON)
        </a>
        <button type="button" className="button button--danger" disabled={busy} onClick={() => setAsking(true)}>
          Delete my account
        </button>
      </div>
      <ConfirmDialog
        open={asking}
        title="Delete your account?"
        confirmLabel={busy ? 'Deleting...' : 'Yes, delete my account'}
        cancelLabel="Keep my account"
        danger
        busy={busy}
        onConfirm={() => void deleteAccount()}
        onCancel={() => setAsking(false)}
      >
        <p>Your timers, searches, runs and feeds are deleted and a paid plan is cancelled. This cannot be undone.</p>
      </ConfirmDialog>
      {error ? (
        <p className="banner banner--warning" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
