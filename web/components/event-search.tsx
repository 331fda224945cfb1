import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { setAppState, type BillingInfo } from '../client/app-state';
import { apiFetch } from '../client/http';
import { SetTimerPanel, TimersPanel } from './timer-panels';

type Panel = 'none' | 'set-timer' | 'timers';

/** Refreshes the credits badge after a search; billing errors are only logged (spec section 8). */
async function refreshBilling(): Promise<void> {
  try {
    const res = await apiFetch('/api/account/billing');
    if (!res.ok) return;
    setAppState({ billing: (await res.json()) as BillingInfo });
  } catch (err) {
    console.warn('Could not refresh billing:', err);
  }
}

/** The browser's IANA time zone, so the answer's dates match the user's clock. */
function browserTimezone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The event search screen (signed in): question, website, streamed Response, and the timer panels. */
export function EventSearch() {
  const id = useId();
  const [ques, setQues] = useState('');
  const [web, setWeb] = useState('');
  const [response, setResponse] = useState('');
  const [searching, setSearching] = useState(false);
  const [panel, setPanel] = useState<Panel>('none');
  const running = useRef(false);
  const abort = useRef<AbortController | null>(null);
  const responseRef = useRef<HTMLTextAreaElement>(null);

  // A search still streaming when the screen goes away (logout) has no reader left: stop it.
  useEffect(() => () => abort.current?.abort(), []);

  // Keep the newest text in view while it streams in.
  useEffect(() => {
    const area = responseRef.current;
    if (area && searching) area.scrollTop = area.scrollHeight;
  }, [response, searching]);

  async function search(event: FormEvent) {
    event.preventDefault();
    if (running.current) return;
    running.current = true;
    setSearching(true);
    setResponse('');
    const controller = new AbortController();
    abort.current = controller;
    try {
      const res = await apiFetch('/api/ask', {
        method: 'POST',
        body: JSON.stringify({ ques, web, timezone: browserTimezone() }),
        signal: controller.signal,
      });
      if (!res.ok) throw new Error(`Backend error: ${await res.text()}`);
      if (!res.body) throw new Error('The answer could not be read.');
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        if (text) setResponse((prev) => prev + text);
      }
      const rest = decoder.decode();
      if (rest) setResponse((prev) => prev + rest);
    } catch (err) {
      if (!controller.signal.aborted) setResponse(`Error: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      running.current = false;
      abort.current = null;
      setSearching(false);
      void refreshBilling();
    }
  }

  const showMessage = (message: string) => setResponse(message);

  return (
    <section className="panel search" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Find events</h2>
      <form className="search__form" onSubmit={search} aria-busy={searching}>
        <div className="field">
          <label htmlFor={`${id}-ques`}>Your Question</label>
          <input
            id={`${id}-ques`}
            name="ques"
            type="text"
            autoComplete="off"
            placeholder="Find AI conferences in Berlin next month"
            value={ques}
            onChange={(e) => setQues(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-web`}>Website URL</label>
          <input
            id={`${id}-web`}
            name="web"
            type="text"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            placeholder="https://example.com/events (optional)"
            value={web}
            onChange={(e) => setWeb(e.target.value)}
          />
        </div>
        <div className="actions search__actions">
          <button type="submit" className="button" disabled={searching}>
            {searching ? 'Searching...' : 'Search Events'}
          </button>
          <button
            type="button"
            className="button button--secondary"
            aria-expanded={panel === 'set-timer'}
            onClick={() => setPanel('set-timer')}
          >
            Set Timer
          </button>
          <button
            type="button"
            className="button button--secondary"
            aria-expanded={panel === 'timers'}
            onClick={() => setPanel((p) => (p === 'timers' ? 'none' : 'timers'))}
          >
            Manage Timers
          </button>
        </div>
      </form>

      {panel === 'set-timer' ? (
        <SetTimerPanel
          ques={ques}
          web={web}
          onClose={() => setPanel('none')}
          onResult={(message) => {
            setPanel('none');
            showMessage(message);
          }}
        />
      ) : null}
      {panel === 'timers' ? <TimersPanel onBack={() => setPanel('none')} onError={showMessage} /> : null}

      {/* The spec hides the Response area while the Set Timer panel is open. */}
      {panel !== 'set-timer' ? (
        <div className="field search__response">
          <label htmlFor={`${id}-response`}>Response</label>
          <textarea id={`${id}-response`} ref={responseRef} readOnly rows={12} value={response} aria-busy={searching} />
        </div>
      ) : null}
    </section>
  );
}
