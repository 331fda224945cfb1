import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
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

/**
 * True when focus is inside an open timer panel, or already dropped to the page (a button disabled while it
 * saved loses focus): closing the panel would leave keyboard users at the top of the page.
 */
function panelHasFocus(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || active.closest('.timer-form, .timers') != null;
}

type Tone = 'error' | 'success' | undefined;

/** Messages in the Response area carry the spec's prefixes; the prefix picks the area's colour. */
function toneOf(text: string): Tone {
  if (text.startsWith('Error: ') || text.startsWith('❌')) return 'error';
  if (text.startsWith('✅')) return 'success';
  return undefined;
}

function statusOf(text: string): string {
  if (!text) return '';
  if (toneOf(text) === 'error') return 'Something went wrong. The Response area has the details.';
  if (toneOf(text) === 'success') return text;
  return 'The answer is ready in the Response area.';
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
  const setTimerButton = useRef<HTMLButtonElement>(null);
  const timersButton = useRef<HTMLButtonElement>(null);

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

  // A closing panel takes the focused control with it; hand focus back to the button that opened it.
  function closePanel(opener: RefObject<HTMLButtonElement | null>) {
    if (opener.current && panelHasFocus()) opener.current.focus();
    setPanel('none');
  }

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
          <div className="field__label-row">
            <label htmlFor={`${id}-web`}>Website URL</label>
            <span className="field__optional" id={`${id}-web-optional`}>
              Optional
            </span>
          </div>
          <input
            id={`${id}-web`}
            name="web"
            type="text"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            placeholder="https://example.com/events"
            aria-describedby={`${id}-web-optional`}
            value={web}
            onChange={(e) => setWeb(e.target.value)}
          />
        </div>
        <div className="actions search__actions">
          <button type="submit" className="button" disabled={searching}>
            {searching ? <span className="spinner" aria-hidden="true" /> : null}
            {searching ? 'Searching...' : 'Search Events'}
          </button>
          <button
            type="button"
            className="button button--secondary"
            ref={setTimerButton}
            aria-expanded={panel === 'set-timer'}
            onClick={() => setPanel('set-timer')}
          >
            Set Timer
          </button>
          <button
            type="button"
            className="button button--secondary"
            ref={timersButton}
            aria-expanded={panel === 'timers'}
            onClick={() => setPanel((p) => (p === 'timers' ? 'none' : 'timers'))}
          >
            Manage Timers
          </button>
        </div>
      </form>
      {/* A read-only textarea is not announced as it fills; this short status tells screen-reader users. */}
      <p className="visually-hidden" role="status">
        {searching ? 'Searching for events.' : statusOf(response)}
      </p>

      {panel === 'set-timer' ? (
        <SetTimerPanel
          ques={ques}
          web={web}
          onClose={() => closePanel(setTimerButton)}
          onResult={(message) => {
            closePanel(setTimerButton);
            showMessage(message);
          }}
        />
      ) : null}
      {panel === 'timers' ? <TimersPanel onBack={() => closePanel(timersButton)} onError={showMessage} /> : null}

      {/* The spec hides the Response area while the Set Timer panel is open. */}
      {panel !== 'set-timer' ? (
        <div className="field search__response">
          <label htmlFor={`${id}-response`}>Response</label>
          <textarea
            id={`${id}-response`}
            ref={responseRef}
            readOnly
            rows={12}
            value={response}
            placeholder="Answers appear here as they are written."
            aria-busy={searching}
            data-tone={toneOf(response)}
          />
        </div>
      ) : null}
    </section>
  );
}
