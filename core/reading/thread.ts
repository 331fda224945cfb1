import type { MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { WebsitePage } from '../website/fetch';
import { type PagePart, type PartFacts, readPagePart } from '../website/page-parts';
import { joinedStep, listedForTheMainThread, type ReadingStep, readStep, type StepResult } from './read-pages';
import { decodeBody, decodeValue, encodeAnswer, encodeValue } from './thread-wire';

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
  /** The step; a `page` step's body comes as `body` instead (its own `body` is empty then). */
  step: ReadingStep;
  /**
   * A `page` step's body as UTF-8 bytes in a buffer shared with the thread, not copied: a 2 MB string would be
   * copied on the main thread, and decoding it there is the thread's work, not the main thread's. A page read in
   * parts shares one buffer between its threads; the pool writes the next page into it (see sharedBody).
   */
  body?: Uint8Array;
  /** Read only this part of the `page` step (see PagePart): the answer is the part's facts. */
  part?: PagePart;
  /** The `page` step's parts as their threads answered (serialised bytes, moved): joined into the step's result. */
  parts?: Uint8Array[];
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
 * sent to the main thread, so a page that makes a million events never costs the main thread their copy. The
 * answer is serialised here, once, into one buffer that is moved, not copied (see encodeValue): the main thread
 * only deserialises it. A part's facts go back the same way, and on into the thread that joins them without being
 * read between.
 */
export default function readInThread(task: ThreadTask): unknown {
  task.started.postMessage('started');
  task.started.close();
  const { step, body } = task;
  const withBody = (): WebsitePage | undefined => (step.kind === 'page' && body ? { ...step.page, body: decodeBody(body) } : undefined);
  if (task.part && step.kind === 'page') return Piscina.move(encodeValue(readPagePart(withBody() ?? step.page, task.part)));
  let result: StepResult;
  if (task.parts && step.kind === 'page') {
    // The body is decoded only when the parts cannot be joined and the page is read whole.
    result = joinedStep(step, task.parts.map(decodeValue<PartFacts>), () => withBody() ?? step.page);
  } else {
    const page = withBody();
    result = readStep(page && step.kind === 'page' ? { ...step, page } : step);
  }
  const count = Math.max(result.events.length, result.facts.events.length);
  const answer: ThreadAnswer = count > task.maxEvents ? { overEvents: count } : { result: listedForTheMainThread(result, step.context) };
  return Piscina.move(encodeAnswer(answer));
}
