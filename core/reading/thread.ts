import { type ReadingStep, readStep, type StepResult } from './read-pages';

/** What the pool hands the reading thread: one step and the output bound it is held to. */
export interface ThreadTask {
  step: ReadingStep;
  /** The most events (and facts) a step may give back. */
  maxEvents: number;
}

/** A step's result, or the output bound it went past (nothing of it is sent back then). */
export type ThreadAnswer = { result: StepResult } | { overEvents: number };

/**
 * The reading thread's entry (piscina imports its default export; web/build.ts bundles it as
 * dist/server/reading-thread.js). The output bound is checked here, outside the parsers and before the result is
 * copied to the main thread, so a page that makes a million events never costs the main thread their copy.
 */
export default function readInThread(task: ThreadTask): ThreadAnswer {
  const result = readStep(task.step);
  const count = Math.max(result.events.length, result.facts.events.length);
  return count > task.maxEvents ? { overEvents: count } : { result };
}
