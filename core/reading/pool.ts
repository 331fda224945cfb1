import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { SearchError } from '../search-error';
import type { ReadingStep, StepResult } from './read-pages';
import type { ThreadTask } from './thread';
import { decodeAnswer, encodeBody } from './thread-wire';

/** The limits every reading is held to from outside its thread (READING_* in core/config.ts). */
export interface ReadingLimits {
  /** Wall time of one reading's work in a reading thread, from the moment a thread starts it, in ms. */
  timeLimitMs: number;
  /** The old-generation heap of a reading thread, in MB (`resourceLimits.maxOldGenerationSizeMb`). */
  heapMb: number;
  /** The most events (occurrences included) and facts one reading may give back. */
  maxEvents: number;
  /** Reading threads of one process. */
  threads: number;
}

/** Which limit stopped a reading: its time, its thread's heap, its output, or its thread failed. */
export type ReadingLimit = 'time' | 'heap' | 'events' | 'failed';

/** A reading the pool stopped: its thread was ended (and replaced) or its output refused. */
export class ReadingOverLimit extends Error {
  constructor(
    readonly limit: ReadingLimit,
    detail: string,
  ) {
    super(`the website reading went past its ${limit} limit: ${detail}`);
    this.name = 'ReadingOverLimit';
  }
}

// Under tsx (make dev, the tests) the thread loads the TypeScript source through tsx; from dist/ the bundle
// beside this one (web/build.ts writes dist/server/reading-thread.js next to api.js and worker.js).
const fromSource = import.meta.url.endsWith('.ts');
const THREAD_FILE = fileURLToPath(new URL(fromSource ? './thread.ts' : './reading-thread.js', import.meta.url));

/**
 * A process's reading threads (piscina): the api's and the worker's main threads hand a fetched page in and get
 * plain facts and events back. A reading past its time is aborted, which terminates its thread; one past its
 * heap ends its thread the same way; piscina starts a fresh thread for the next. Neither ends the process.
 */
export class ReadingPool {
  private readonly pool: Piscina<ThreadTask, Uint8Array>;

  constructor(readonly limits: ReadingLimits) {
    this.pool = new Piscina({
      filename: THREAD_FILE,
      execArgv: fromSource ? ['--import', 'tsx'] : [],
      // Every thread started with the pool and kept: a thread starting (its parsers loading, its warm-up
      // reading) costs seconds under tsx and a multiple of a page's reading from the bundle, and a reading that
      // found every warm thread busy used to wait for one to start. A thread ended at a limit is replaced at once.
      minThreads: limits.threads,
      maxThreads: limits.threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
    });
  }

  /**
   * Runs one step within `timeMs`; throws ReadingOverLimit past a limit, SearchError('aborted') when the
   * search's own signal ends it.
   */
  async run(step: ReadingStep, timeMs: number, signal?: AbortSignal): Promise<StepResult> {
    // The clock starts when a thread takes the step: a thread starting up (after one was ended) or a queue
    // behind other readings is not this page's cost.
    const { port1, port2 } = new MessageChannel();
    const timeout = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    port1.once('message', () => {
      timer = setTimeout(() => timeout.abort(), Math.max(1, Math.round(timeMs)));
    });
    const both = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
    // A page's body crosses as bytes moved into the thread (see ThreadTask.body), the answer as bytes moved out.
    const body = step.kind === 'page' ? encodeBody(step.page.body) : undefined;
    const task: ThreadTask =
      step.kind === 'page' && body
        ? { step: { ...step, page: { ...step.page, body: '' } }, body, maxEvents: this.limits.maxEvents, started: port2 }
        : { step, maxEvents: this.limits.maxEvents, started: port2 };
    let bytes: Uint8Array;
    try {
      bytes = await this.pool.run(task, { signal: both, transferList: body ? [port2, body.buffer as ArrayBuffer] : [port2] });
    } catch (err) {
      if (signal?.aborted) throw new SearchError('aborted', 'The search was cancelled.', true, { cause: err });
      if (timeout.signal.aborted) throw new ReadingOverLimit('time', `${Math.round(timeMs)} ms`);
      if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw new ReadingOverLimit('heap', `${this.limits.heapMb} MB`);
      throw new ReadingOverLimit('failed', (err as Error).message);
    } finally {
      clearTimeout(timer);
      port1.close();
    }
    const answer = decodeAnswer(bytes);
    if ('overEvents' in answer) throw new ReadingOverLimit('events', `${answer.overEvents} > ${this.limits.maxEvents}`);
    return answer.result;
  }

  close(): Promise<void> {
    return this.pool.close({ force: true });
  }
}
