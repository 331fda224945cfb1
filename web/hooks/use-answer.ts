import type { TimerFilters } from '../../core/contract/timer-filters';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Event } from '../../core/contract/event';
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
  /**
   * Where the answer's events are: 'none' before an answer has ended (or without one), 'pending' while they are
   * found after it, then 'done', or 'failed' when some could not be read ('gave-up': the page stopped waiting).
   */
  eventsStatus: 'none' | 'pending' | 'done' | 'failed' | 'gave-up';
  /** Google's Search Suggestions page for a grounded answer (framed beside it), null otherwise. */
  suggestionsUrl: string | null;
  ask: (input: { ques: string; web: string; filters?: TimerFilters | null }) => Promise<void>;
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
  const [eventsStatus, setEventsStatus] = useState<Answer['eventsStatus']>('none');
  const [suggestionsUrl, setSuggestionsUrl] = useState<string | null>(null);
  const running = useRef(false);
  const abort = useRef<AbortController | null>(null);
  const waiting = useRef<AbortController | null>(null);

  // A search still streaming (or its events still awaited) when the screen goes away (logout) has no reader left.
  useEffect(
    () => () => {
      abort.current?.abort();
      waiting.current?.abort();
    },
    [],
  );

  const ask = useCallback(async ({ ques, web, filters }: { ques: string; web: string; filters?: TimerFilters | null }) => {
    if (running.current) return;
    running.current = true;
    waiting.current?.abort();
    setStreaming(true);
    setText('');
    setFailure(null);
    setEvents([]);
    setEventsStatus('none');
    setSuggestionsUrl(null);
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
      const searchId = res.headers.get('x-search-id');
      if (searchId && !controller.signal.aborted) {
        setEventsStatus('pending');
        const onRead = (extras: { events: Event[]; suggestionsUrl: string | null }) => {
          setEvents(extras.events);
          setSuggestionsUrl(extras.suggestionsUrl);
        };
        // A new search (or leaving the page) stops this wait: its abort is the next search's controller's.
        const stop = new AbortController();
        waiting.current?.abort();
        waiting.current = stop;
        extrasReader
          .then(({ waitForSearchExtras }) => waitForSearchExtras(searchId, onRead, stop.signal))
          .then(
            (extras) => {
              if (!stop.signal.aborted) setEventsStatus(extras.eventsStatus === 'pending' ? 'gave-up' : extras.eventsStatus);
            },
            (err: unknown) => {
              if (!stop.signal.aborted) setEventsStatus('gave-up');
              console.warn('Could not load the events of the answer:', errorText(err));
            },
          );
      }
    } catch (err) {
      if (!controller.signal.aborted) {
        setFailure({ kind: err instanceof AskError ? err.kind : 'error', message: `Error: ${errorText(err)}` });
      }
    } finally {
      running.current = false;
      abort.current = null;
      setStreaming(false);
      void refreshBilling();
    }
  }, []);

  return { text, streaming, failure, events, eventsStatus, suggestionsUrl, ask };
}
