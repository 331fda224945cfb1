import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { setAppState, type BillingInfo } from '../client/app-state';
import { formatDate, searchesLeft } from '../client/format';
import { type Answer, useAnswer, type AskFailure } from '../hooks/use-answer';
import { Alert } from './alert';
import { useTimerLink } from '../client/timer-link';
import { takeSearchFocusRequest } from '../client/search-focus';
import { browserTimezone, pageHost } from '../client/timezone';
import { AnswerText } from './answer-text';
import { LazyEventList } from './lazy-events';
import { SearchSuggestions } from './search-suggestions';
import { LazySetTimerPanel, loadSetTimerPanel } from './lazy-set-timer';
import { EMPTY_FILTER_DRAFT, type FilterDraft, filtersOf } from '../client/timer-filters';
import { LazyFilterFields } from './lazy-filters';
import { LazyTimersPanel } from './lazy-timers';
import { LazySearchHistory } from './lazy-search-history';
import { LazyHiddenEvents } from './lazy-hidden-events';
import { clearSearchAddress, searchInAddress, showSearchAddress } from '../client/search-address';

type Panel = 'none' | 'set-timer' | 'timers';

/**
 * True when focus is inside an open timer panel, or already dropped to the page (a button disabled while it
 * saved loses focus): closing the panel would leave keyboard users at the top of the page.
 */
function panelHasFocus(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || active.closest('.timer-form, .timers') != null;
}

/** A failed search, beside the Search button; out of searches also says when they renew and offers the plans. */
function SearchFailure({ failure, billing }: { failure: AskFailure; billing: BillingInfo | null }) {
  if (failure.kind !== 'out-of-searches') return <Alert tone="error">{failure.message}</Alert>;
  return (
    <Alert
      tone="error"
      actions={
        <button type="button" className="button button--small" onClick={() => setAppState({ view: 'subscription' })}>
          See plans
        </button>
      }
    >
      {failure.message}
      {billing ? ` Your searches renew on ${formatDate(billing.period_end)}.` : null}
    </Alert>
  );
}

/** The event search screen (signed in): question, website, streamed Response, and the timer panels. */
export function EventSearch({ billing }: { billing: BillingInfo | null }) {
  const id = useId();
  const [ques, setQues] = useState('');
  const [web, setWeb] = useState('');
  const [panel, setPanel] = useState<Panel>('none');
  const [saved, setSaved] = useState<string | null>(null);
  const [filters, setFilters] = useState<FilterDraft>(EMPTY_FILTER_DRAFT);
  const answer = useAnswer();
  const setTimerButton = useRef<HTMLButtonElement>(null);
  const timersButton = useRef<HTMLButtonElement>(null);
  const linkedTimer = useTimerLink();
  const question = useRef<HTMLInputElement>(null);
  const responseHeading = useRef<HTMLHeadingElement>(null);
  // Bumped when the list of recent searches should be read again: a search has ended, or its events have.
  const [historyRefresh, setHistoryRefresh] = useState(0);
  const asked = useRef<string | null>(null);

  // Signed in just now (Google's button, which had focus, is gone): continue in the question field, when the
  // home view shows (a plan chosen signed out keeps the person on the plans, see PlanPicker).
  useEffect(() => {
    if (takeSearchFocusRequest() && question.current?.closest('[hidden]') === null) question.current.focus();
  }, []);

  // Set Timer's panel loads after the page, so it is there when asked for; pressed sooner, it shows as it arrives.
  useEffect(() => {
    loadSetTimerPanel().catch((err: unknown) => console.warn('The Set Timer panel will load when it is opened:', err));
  }, []);

  // A link to a timer opens Manage Timers, which shows that timer (see TimersPanel).
  useEffect(() => {
    if (linkedTimer !== null) setPanel('timers');
  }, [linkedTimer]);

  // A search's own address (`/?search=<id>`, from the history, a reload or a shared link) opens its answer and
  // events, and its question and website in the fields; back and forward go through the searches shown.
  const { open: openAnswer, clear } = answer;
  const openSearch = useCallback(
    async (searchId: string) => {
      const shown = await openAnswer(searchId);
      if (shown) {
        setQues(shown.question);
        setWeb(shown.website);
      }
    },
    [openAnswer],
  );
  useEffect(() => {
    const fromAddress = () => {
      const searchId = searchInAddress();
      if (searchId) void openSearch(searchId);
      else clear();
    };
    const first = searchInAddress();
    if (first) void openSearch(first);
    window.addEventListener('popstate', fromAddress);
    return () => window.removeEventListener('popstate', fromAddress);
  }, [openSearch, clear]);

  // The history counts the events of the search just asked once they are found.
  useEffect(() => {
    if (
      asked.current !== null &&
      answer.searchId === asked.current &&
      answer.eventsStatus !== 'pending' &&
      answer.eventsStatus !== 'none'
    ) {
      asked.current = null;
      setHistoryRefresh((n) => n + 1);
    }
  }, [answer.searchId, answer.eventsStatus]);

  async function search(event: FormEvent) {
    event.preventDefault();
    setSaved(null);
    const searchId = await answer.ask({ ques, web, filters: filtersOf(filters) });
    if (searchId) {
      asked.current = searchId;
      showSearchAddress(searchId);
      setHistoryRefresh((n) => n + 1);
    } else {
      // The Response area no longer shows the search the address named.
      clearSearchAddress();
    }
  }

  /** A search chosen in the history: shown in the Response area, where keyboard focus goes too. */
  function fromHistory(searchId: string) {
    setSaved(null);
    if (panel === 'set-timer') setPanel('none');
    showSearchAddress(searchId);
    void openSearch(searchId);
    responseHeading.current?.focus();
  }

  function open(next: Panel) {
    setSaved(null);
    setPanel((p) => (next === 'timers' && p === 'timers' ? 'none' : next));
  }

  // A closing panel takes the focused control with it; hand focus back to the button that opened it.
  function closePanel(opener: RefObject<HTMLButtonElement | null>) {
    if (opener.current && panelHasFocus()) opener.current.focus();
    setPanel('none');
  }

  return (
    <section className="panel search" aria-labelledby={`${id}-title`}>
      <div className="search__head">
        <h2 id={`${id}-title`}>Find events</h2>
        {billing ? <p className="credits-badge">{searchesLeft(billing.credits)}</p> : null}
      </div>
      <form className="search__form" onSubmit={(e) => void search(e)} aria-busy={answer.streaming}>
        <div className="field">
          <label htmlFor={`${id}-ques`}>Your Question</label>
          <input
            ref={question}
            id={`${id}-ques`}
            name="ques"
            type="text"
            autoComplete="off"
            placeholder="Find AI conferences in Berlin"
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
        <LazyFilterFields
          value={filters}
          open={false}
          summary="Which events to show (optional)"
          onChange={(patch) => setFilters((f) => ({ ...f, ...patch }))}
        />
        <div className="actions search__actions">
          <button type="submit" className="button" disabled={answer.streaming}>
            {answer.streaming ? <span className="spinner" aria-hidden="true" /> : null}
            {answer.streaming ? 'Searching...' : 'Search Events'}
          </button>
          <button
            type="button"
            className="button button--secondary"
            ref={setTimerButton}
            aria-expanded={panel === 'set-timer'}
            onClick={() => open('set-timer')}
          >
            Set Timer
          </button>
          <button
            type="button"
            className="button button--secondary"
            ref={timersButton}
            aria-expanded={panel === 'timers'}
            onClick={() => open('timers')}
          >
            Manage Timers
          </button>
        </div>
      </form>
      {answer.failure ? <SearchFailure failure={answer.failure} billing={billing} /> : null}
      {saved ? <Alert tone="success">{saved}</Alert> : null}
      {/* The Response region is not announced while it fills; this short status tells screen-reader users. */}
      <p className="visually-hidden" role="status">
        {answer.streaming
          ? 'Searching for events.'
          : answer.opening
            ? 'Opening your search.'
            : answer.text && !answer.failure
              ? 'The answer is ready in the Response area.'
              : ''}
      </p>

      {panel === 'set-timer' ? (
        <LazySetTimerPanel
          ques={ques}
          web={web}
          filters={filters}
          onClose={() => closePanel(setTimerButton)}
          onQuestion={(q, w) => {
            setQues(q);
            setWeb(w);
          }}
          onSaved={(message) => {
            closePanel(setTimerButton);
            setSaved(message);
          }}
        />
      ) : null}
      {panel === 'timers' ? <LazyTimersPanel onBack={() => closePanel(timersButton)} /> : null}

      {/* The spec hides the Response area while the Set Timer panel is open; under Manage Timers it shows only
          when it holds something. */}
      {panel === 'none' || (panel === 'timers' && (answer.text || answer.streaming || answer.opening)) ? (
        <div className="search__response">
          <h3 className="search__response-label" id={`${id}-response-label`} ref={responseHeading} tabIndex={-1}>
            Response
          </h3>
          <section
            className="response"
            aria-labelledby={`${id}-response-label`}
            aria-busy={answer.streaming || answer.opening}
            data-placeholder="Answers appear here as they are written."
          >
            {answer.text ? <AnswerText text={answer.text} corrections={answer.corrections} /> : null}
          </section>
          {answer.suggestionsUrl ? <SearchSuggestions url={answer.suggestionsUrl} /> : null}
          <LazyEventList events={answer.events} timeZone={browserTimezone()} title="Events in this answer" uidDomain={pageHost()} />
          <LazyHiddenEvents hidden={answer.hiddenEvents} answer={answer.text} timeZone={browserTimezone()} uidDomain={pageHost()} />
          <EventsLeftOut leftOut={answer.eventsLeftOut} kept={answer.events.length + answer.hiddenEvents.length} />
          <EventsStatus status={answer.eventsStatus} found={answer.events.length} />
          {/* Past searches while searching; managing timers keeps the page to the timers. */}
          {panel === 'none' ? <LazySearchHistory currentId={answer.searchId} refresh={historyRefresh} onOpen={fromHistory} /> : null}
        </div>
      ) : null}
    </section>
  );
}

/**
 * Under the events, when the search found more than it keeps (a calendar read whole can give thousands): how many
 * are not listed, and how to see them.
 */
function EventsLeftOut({ leftOut, kept }: { leftOut: number; kept: number }) {
  if (leftOut <= 0) return null;
  const more = leftOut === 1 ? '1 more event' : `${leftOut.toLocaleString('en')} more events`;
  return (
    <p className="search__events-left-out">
      This search found {more} than the {kept.toLocaleString('en')} it keeps, so {leftOut === 1 ? 'it is' : 'they are'} not listed. To see{' '}
      {leftOut === 1 ? 'it' : 'them'}, ask a narrower question or choose dates under “Which events to show”.
    </p>
  );
}

/** Says that the answer's events are still coming (they are found a moment after it ends), or what became of them. */
function EventsStatus({ status, found }: { status: Answer['eventsStatus']; found: number }) {
  const text =
    status === 'pending'
      ? 'Finding the events in this answer…'
      : status === 'failed'
        ? found > 0
          ? 'Some events in this answer could not be read; these are the ones found.'
          : 'The events in this answer could not be read.'
        : status === 'gave-up'
          ? 'The events in this answer are taking long. Open the search again later to see them.'
          : '';
  return (
    <p className="search__events-status" role="status">
      {status === 'pending' ? <span className="spinner" aria-hidden="true" /> : null}
      {text}
    </p>
  );
}
