import { parentPort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { listedForTheMainThread, type ReadingStep, readStep, type StepResult } from './read-pages';
import { decodeBody, encodeAnswer, THREAD_WARM } from './thread-wire';

// The parsers and the offline zone tables load lazily, on first use: several seconds under tsx. Paid here, once
// per thread as it starts: with the pool, before any reading; a thread replacing one ended at a limit starts
// while readings may wait for it, and their time counts on (a reading's time counts from its queueing).
const WARM_UP = { searcherTimezone: 'UTC', now: Date.UTC(2026, 0, 1) };
readStep({
  kind: 'page',
  page: {
    url: 'https://warm-up.invalid/',
    contentType: 'text/html',
    body:
      '<script type="application/ld+json">{"@type":"Event","name":"A","startDate":"2026-01-02T19:00","location":{"address":"Berlin"}}</script>' +
      '<div itemscope itemtype="https://schema.org/Event"><span itemprop="name">B</span></div>' +
      '<div vocab="https://schema.org/" typeof="Event"><span property="name">C</span></div><div class="h-event"><p class="p-name">D</p></div>',
  },
  context: WARM_UP,
});
readStep({
  kind: 'page',
  page: {
    url: 'https://warm-up.invalid/c.ics',
    contentType: 'text/calendar',
    body: 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:w\r\nSUMMARY:E\r\nDTSTART;TZID=Europe/Berlin:20260102T190000\r\nRRULE:FREQ=WEEKLY;COUNT=2\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
  },
  context: WARM_UP,
});

// Told to the pool (piscina passes a thread's own messages on): this thread is warm.
parentPort?.postMessage(THREAD_WARM);

/** What the pool hands the reading thread: one step and the output bound it is held to. */
export interface ThreadTask {
  /** The step; a `page` step's body comes as `body` instead (its own `body` is empty then). */
  step: ReadingStep;
  /**
   * A `page` step's body as UTF-8 bytes in a buffer shared with the thread, not copied: a 2 MB string would be
   * copied on the main thread, and decoding it there is the thread's work, not the main thread's. The pool writes
   * the next page into it once this step has ended (see sharedBody).
   */
  body?: Uint8Array;
  /** The most events (and facts) a step may give back. */
  maxEvents: number;
}

/** A step's result, or the output bound it went past (nothing of it is sent back then). */
export type ThreadAnswer = { result: StepResult } | { overEvents: number };

/**
 * The reading thread's entry (piscina imports its default export; web/build.ts bundles it as
 * dist/server/reading-thread.js). The output bound is checked here, outside the parsers and before the result is
 * sent to the main thread, so a page that makes a million events never costs the main thread their copy. The
 * answer is serialised here, once, into one buffer that is moved, not copied (see encodeValue): the main thread
 * only deserialises it.
 */
export default function readInThread(task: ThreadTask): unknown {
  const { step, body } = task;
  const result = readStep(step.kind === 'page' && body ? { ...step, page: { ...step.page, body: decodeBody(body) } } : step);
  const count = Math.max(result.events.length, result.facts.events.length);
  const answer: ThreadAnswer = count > task.maxEvents ? { overEvents: count } : { result: listedForTheMainThread(result, step.context) };
  return Piscina.move(encodeAnswer(answer));
}
