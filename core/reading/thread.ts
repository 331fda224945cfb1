import type { MessagePort } from 'node:worker_threads';
import { type ReadingStep, readStep, type StepResult } from './read-pages';

// The parsers and the offline zone tables load lazily, on first use: several seconds under tsx. Paid here, once
// per thread as it starts, before any page's clock does (the pool starts the clock when a step begins).
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

/** What the pool hands the reading thread: one step and the output bound it is held to. */
export interface ThreadTask {
  step: ReadingStep;
  /** The most events (and facts) a step may give back. */
  maxEvents: number;
  /** Told when the step starts in a thread: its time limit counts from here, not from a thread's start-up. */
  started: MessagePort;
}

/** A step's result, or the output bound it went past (nothing of it is sent back then). */
export type ThreadAnswer = { result: StepResult } | { overEvents: number };

/**
 * The reading thread's entry (piscina imports its default export; web/build.ts bundles it as
 * dist/server/reading-thread.js). The output bound is checked here, outside the parsers and before the result is
 * copied to the main thread, so a page that makes a million events never costs the main thread their copy.
 */
export default function readInThread(task: ThreadTask): ThreadAnswer {
  task.started.postMessage('started');
  task.started.close();
  const result = readStep(task.step);
  const count = Math.max(result.events.length, result.facts.events.length);
  return count > task.maxEvents ? { overEvents: count } : { result };
}
