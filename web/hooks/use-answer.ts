import type { TimerFilters } from '../../core/contract/timer-filters';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AnswerCorrection } from '../../core/contract/answer-correction';
import type { Event } from '../../core/contract/event';
import { incompleteAnswerNote } from '../../core/contract/incomplete-answer';
import type { SearchExtras } from '../client/events';
import { refreshBilling } from '../client/billing';
import { apiFetch, errorText } from '../client/http';
import { browserTimezone } from '../client/timezone';

/** Why a search ended without a full answer; the kind comes from the reply's status, never from its text. */
export interface AskFailure {
  kind: 'out-of-searches' | 'error';
  /** The spec's sentence: 'Error: ' plus the message ('Backend error: ' plus the server text for a non-ok reply). */
  message: string;
}

export interface Answer {
  /** The answer as streamed so far. */
  text: string;
  streaming: boolean;
  failure: AskFailure | null;
  /** The events of the finished answer (GET /api/searches/:id), empty while streaming or when there are none. */
  events: Event[];
  /** The events the search's filters left out (shown on request), empty without filters. */
  hiddenEvents: Event[];
  /** How many events the search found beyond those it keeps (shown in neither list); 0 when it kept them all. */
  eventsLeftOut: number;
  /** The dates in the answer its checked events contradict, marked where they stand; empty until they are checked. */
  corrections: AnswerCorrection[];
  /**
   * Where the answer's events are: 'none' before an answer has ended (or without one), 'pending' while they are
   * found after it, then 'done', or 'failed' when some could not be read ('gave-up': the page stopped waiting).
   */
  eventsStatus: 'none' | 'pending' | 'done' | 'failed' | 'gave-up';
  /** Google's Search Suggestions page for a grounded answer (framed beside it), null otherwise. */
  suggestionsUrl: string | null;
  /** The search shown (its answer ended, or opened from its address or the history), else null. */
  searchId: string | null;
  /** True while a past search is being read to show it. */
  opening: boolean;
  /** Resolves once the answer has ended: to the search's id, or null when there is none to go back to. */
  ask: (input: { ques: string; web: string; filters?: TimerFilters | null }) => Promise<string | null>;
  /** Shows a past search, its answer and events; resolves to its question and website, or null when it failed. */
  open: (searchId: string) => Promise<{ question: string; website: string } | null>;
  /** Back to an empty Response area (the address names no search any more). */
  clear: () => void;
}

class AskError extends Error {
  constructor(
    readonly kind: AskFailure['kind'],
    message: string,
  ) {
    super(message);
  }
}

/**
 * POST /api/ask, streamed: the text grows as it arrives. One search at a time (a ref, not state: a double
 * click lands before React re-renders the disabled button); credits are re-read after every search.
 */
export function useAnswer(): Answer {
  const [text, setText] = useState('');
  const [streaming, setStreaming] = useState(false);
  const [failure, setFailure] = useState<AskFailure | null>(null);
  const [events, setEvents] = useState<Event[]>([]);
  const [hiddenEvents, setHiddenEvents] = useState<Event[]>([]);
  const [corrections, setCorrections] = useState<AnswerCorrection[]>([]);
  const [eventsLeftOut, setEventsLeftOut] = useState(0);
  const [eventsStatus, setEventsStatus] = useState<Answer['eventsStatus']>('none');
  const [suggestionsUrl, setSuggestionsUrl] = useState<string | null>(null);
  const [searchId, setSearchId] = useState<string | null>(null);
  const [opening, setOpening] = useState(false);
  const running = useRef(false);
  const abort = useRef<AbortController | null>(null);
  const waiting = useRef<AbortController | null>(null);
  // Which open() or ask() is the latest: an earlier open's reply arriving after it is dropped.
  const latest = useRef(0);

  // A search still streaming (or its events still awaited) when the screen goes away (logout) has no reader left.
  useEffect(
    () => () => {
      abort.current?.abort();
      waiting.current?.abort();
    },
    [],
  );

  // The answer's events are read until they are stored, showing that they are coming; a new search (or leaving
  // the page) stops this wait. While they are pending, what is stored may be half of them (they are written
  // before their status ends), so they are shown once their status has ended, or when the page stops waiting.
  const follow = useCallback((id: string, extrasReader: Promise<typeof import('../client/events')>) => {
    setEventsStatus('pending');
    const show = (extras: Pick<SearchExtras, 'events' | 'hiddenEvents' | 'answerCorrections' | 'eventsLeftOut'>) => {
      setEvents(extras.events);
      setHiddenEvents(extras.hiddenEvents);
      setCorrections(extras.answerCorrections);
      setEventsLeftOut(extras.eventsLeftOut);
    };
    const onRead = (extras: SearchExtras) => {
      setSuggestionsUrl(extras.suggestionsUrl);
      if (extras.eventsStatus !== 'pending') show(extras);
    };
    const stop = new AbortController();
    waiting.current?.abort();
    waiting.current = stop;
    extrasReader
      .then(({ waitForSearchExtras }) => waitForSearchExtras(id, onRead, stop.signal))
      .then(
        (extras) => {
          if (stop.signal.aborted) return;
          show(extras);
          setEventsStatus(extras.eventsStatus === 'pending' ? 'gave-up' : extras.eventsStatus);
        },
        (err: unknown) => {
          if (!stop.signal.aborted) setEventsStatus('gave-up');
          console.warn('Could not load the events of the answer:', errorText(err));
        },
      );
  }, []);

  // What an answer shows, emptied before another is opened or asked; a wait for the last one's events ends.
  const reset = useCallback(() => {
    waiting.current?.abort();
    setText('');
    setFailure(null);
    setEvents([]);
    setHiddenEvents([]);
    setCorrections([]);
    setEventsLeftOut(0);
    setEventsStatus('none');
    setSuggestionsUrl(null);
    setSearchId(null);
  }, []);

  const clear = useCallback(() => {
    if (running.current) return;
    reset();
  }, [reset]);

  const open = useCallback(
    async (id: string) => {
      if (running.current) return null;
      clear();
      setSearchId(id);
      setOpening(true);
      const mine = ++latest.current;
      const reader = import('../client/events');
      try {
        const search = await (await reader).fetchSearch(id);
        if (mine !== latest.current) return null;
        // A search that failed after its answer began shows its kept part with the failure, as it ended live.
        const failed = search.status === 'failed' && search.answer !== null;
        setText(failed ? `${search.answer}${incompleteAnswerNote(search.error ?? '')}` : (search.answer ?? ''));
        setSuggestionsUrl(search.search_suggestions_url);
        if (search.events_status === 'pending') follow(id, reader);
        else {
          setEvents(search.events);
          setHiddenEvents(search.hidden_events);
          setCorrections(search.answer_corrections);
          setEventsLeftOut(search.events_left_out);
          setEventsStatus(search.events_status);
        }
        return { question: search.question, website: search.website };
      } catch (err) {
        if (mine !== latest.current) return null;
        setSearchId(null);
        setFailure({ kind: 'error', message: errorText(err) });
        return null;
      } finally {
        if (mine === latest.current) setOpening(false);
      }
    },
    [clear, follow],
  );

  const ask = useCallback(
    async ({ ques, web, filters }: { ques: string; web: string; filters?: TimerFilters | null }) => {
      if (running.current) return null;
      running.current = true;
      latest.current++;
      setOpening(false);
      reset();
      setStreaming(true);
      const controller = new AbortController();
      abort.current = controller;
      // The answer's events are read once it has ended: their reader loads while it streams, not with the page.
      const extrasReader = import('../client/events');
      try {
        const res = await apiFetch('/api/ask', {
          method: 'POST',
          body: JSON.stringify({ ques, web, timezone: browserTimezone(), ...(filters ? { filters } : {}) }),
          signal: controller.signal,
        });
        if (!res.ok) throw new AskError(res.status === 402 ? 'out-of-searches' : 'error', `Backend error: ${await res.text()}`);
        if (!res.body) throw new AskError('error', 'The answer could not be read.');
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const piece = decoder.decode(value, { stream: true });
          if (piece) setText((prev) => prev + piece);
        }
        const rest = decoder.decode();
        if (rest) setText((prev) => prev + rest);
        // The reply ends with the answer; its events are found a moment later: read the search until they are
        // stored, showing that they are coming. Without them the answer stands alone.
        const id = res.headers.get('x-search-id');
        if (id && !controller.signal.aborted) {
          setSearchId(id);
          follow(id, extrasReader);
          return id;
        }
        return null;
      } catch (err) {
        if (!controller.signal.aborted) {
          setFailure({ kind: err instanceof AskError ? err.kind : 'error', message: `Error: ${errorText(err)}` });
        }
        return null;
      } finally {
        running.current = false;
        abort.current = null;
        setStreaming(false);
        void refreshBilling();
      }
    },
    [follow, reset],
  );

  return {
    text,
    streaming,
    failure,
    events,
    hiddenEvents,
    eventsLeftOut,
    corrections,
    eventsStatus,
    suggestionsUrl,
    searchId,
    opening,
    ask,
    open,
    clear,
  };
}
