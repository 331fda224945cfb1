import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { SearchError } from '../search-error';
import type { ReadingStep, StepResult } from './read-pages';
import { ReaderTurns } from './reader-turns';
import type { ThreadTask } from './thread';
import { decodeAnswer, sharedBody, THREAD_WARM } from './thread-wire';

/** The limits every reading is held to from outside its thread (READING_* in core/config.ts). */
export interface ReadingLimits {
  /** Wall time of one reading, from the moment it is handed to the pool (its wait for a thread counts), in ms. */
  timeLimitMs: number;
  /** The old-generation heap of a reading thread, in MB (`resourceLimits.maxOldGenerationSizeMb`). */
  heapMb: number;
  /** The most events (occurrences included) and facts one reading may give back. */
  maxEvents: number;
  /** Reading threads of one process. */
  threads: number;
  /** Readings of one process that may wait for a thread; past it a reading is refused (see ReaderTurns). */
  queueLimit: number;
}

/** Who a reading is for (a user's id; readings of one reader wait behind each other), and its search's signal. */
export interface ReadingFor {
  reader: string;
  signal?: AbortSignal;
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

/** A reading in a thread: whether it has run past half the time limit, and how to end it early. */
interface InThread {
  reader: string;
  long: boolean;
  yield: () => void;
}

/** The sentence of a reading refused because too many wait for this process's threads: nothing was charged. */
export const READING_QUEUE_FULL =
  'Too many websites are waiting to be read right now, so yours was not read. Please try again in a minute; nothing was charged.';

/**
 * A process's reading threads (piscina): the api's and the worker's main threads hand a fetched page in and get
 * plain facts and events back. The threads are handed out fairly between readers (ReaderTurns): one user's
 * readings wait behind their own, never in front of another user's, and one user holds at most all threads but
 * one. A reading past its time is aborted, which terminates its thread; one past its heap ends its thread the
 * same way; piscina starts a fresh thread for the next. Neither ends the process.
 */
export class ReadingPool {
  private readonly pool: Piscina<ThreadTask, Uint8Array>;
  private readonly turns: ReaderTurns;
  /** Readings in a thread now (see yieldLastThread). */
  private readonly inThreads = new Set<InThread>();
  /** Resolves once every thread the pool started with has loaded its parsers and warmed up. */
  readonly ready: Promise<void>;
  private warm = false;
  /**
   * Buffers readings shared their pages in, written again by the next ones (see sharedBody), one per thread and
   * one more at most. A reading takes one while it runs and gives it back only when it ends with its answer: a
   * task stopped at a limit may still be read by a thread being ended.
   */
  private readonly spareBodies: SharedArrayBuffer[] = [];

  /** `threadFile`: the module each thread runs (./thread.ts's default export and warm-up message). */
  constructor(
    readonly limits: ReadingLimits,
    threadFile = THREAD_FILE,
  ) {
    const perReader = Math.max(1, limits.threads - 1);
    this.turns = new ReaderTurns(limits.threads, perReader, limits.queueLimit, () => {
      const busy = new SearchError('reading_busy', READING_QUEUE_FULL, true);
      // A queue drains within one reading's time: the wait a client or a timer's retry is told.
      busy.retryAfterSeconds = Math.ceil(limits.timeLimitMs / 1000);
      return busy;
    });
    this.pool = new Piscina({
      filename: threadFile,
      execArgv: fromSource ? ['--import', 'tsx'] : [],
      // One thread more than run readings at once (see ReaderTurns), so a thread ended at a limit never makes the
      // next reading wait for its replacement's start.
      // Every thread started with the pool and kept: a thread starting (its parsers loading, its warm-up
      // reading) costs seconds under tsx and a multiple of a page's reading from the bundle, and a reading that
      // found every warm thread busy used to wait for one to start. A thread ended at a limit is replaced at once.
      minThreads: limits.threads + 1,
      maxThreads: limits.threads + 1,
      idleTimeout: Number.POSITIVE_INFINITY,
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
    });
    let warm = 0;
    this.ready = new Promise((resolve) => {
      this.pool.on('message', (message: unknown) => {
        if (message === THREAD_WARM && ++warm === limits.threads + 1) {
          this.warm = true;
          resolve();
        }
      });
    });
  }

  /**
   * Runs one step for `reader` in one thread within `timeMs`, counted from now: its wait for a thread is part of
   * it. Throws ReadingOverLimit past a limit (`time` as well when the time ran out while waiting),
   * SearchError('reading_busy') when too many readings wait, SearchError('aborted') when the search's own signal
   * ends it.
   */
  async run(step: ReadingStep, timeMs: number, { reader, signal }: ReadingFor): Promise<StepResult> {
    // The threads' start with the pool is no reading's cost: a reading handed in before they are warm (the first
    // after a process starts) starts its clock once they are, or after its own time when they never say so.
    if (!this.warm) await Promise.race([this.ready, delay(timeMs, undefined, { ref: false })]);
    const ended = new AbortController();
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        ended.abort();
      },
      Math.max(1, Math.round(timeMs)),
    );
    // The search's signal is listened to rather than joined with AbortSignal.any, whose joined signals are let go
    // through weak references the garbage collector must process.
    const end = () => ended.abort();
    if (signal?.aborted) ended.abort();
    signal?.addEventListener('abort', end, { once: true });
    let started = false;
    let yielded = false;
    const turn = this.turns.take(reader, ended.signal);
    this.yieldLastThread();
    try {
      await turn;
      started = true;
      const here: InThread = {
        reader,
        long: false,
        yield: () => {
          yielded = true;
          ended.abort();
        },
      };
      const half = setTimeout(() => {
        here.long = true;
        this.yieldLastThread();
      }, this.limits.timeLimitMs / 2);
      this.inThreads.add(here);
      try {
        return await this.runTask(step, ended.signal);
      } finally {
        clearTimeout(half);
        this.inThreads.delete(here);
        this.turns.release(reader);
      }
    } catch (err) {
      if (err instanceof SearchError || err instanceof ReadingOverLimit) throw err;
      if (signal?.aborted) throw searchEnded(signal.reason, err);
      if (timedOut) throw new ReadingOverLimit('time', `${Math.round(timeMs)} ms${started ? '' : ', all of it waiting for a thread'}`);
      if (yielded) throw new ReadingOverLimit('time', 'half of it in a thread while other readings waited for every thread');
      if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw new ReadingOverLimit('heap', `${this.limits.heapMb} MB`);
      throw new ReadingOverLimit('failed', (err as Error).message);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', end);
    }
  }

  /** Readings waiting for a thread. */
  get waiting(): number {
    return this.turns.waiting;
  }

  /**
   * Keeps the last thread for readings that end in time: while another reader's reading waits and every thread
   * runs a reading past half the time limit, the oldest of them whose thread that reader could take is ended
   * (as its time limit would end it soon).
   * A page read in time takes a small part of the limit; one that runs past half of it while every thread is
   * taken would otherwise hold back every other user for the rest of it.
   */
  private yieldLastThread(): void {
    if (this.inThreads.size < this.limits.threads) return;
    const readings = [...this.inThreads];
    if (!readings.every((r) => r.long)) return;
    readings.find((r) => this.turns.waitingBesides(r.reader))?.yield();
  }

  /** One step in the thread its turn holds, until `signal` ends it (which ends the thread). */
  private async runTask(step: ReadingStep, signal: AbortSignal): Promise<StepResult> {
    // A page's body crosses as bytes shared with the thread (see ThreadTask.body), the answer as bytes moved out.
    const body = step.kind === 'page' ? this.pageBody(step.page.body) : undefined;
    const task = body && step.kind === 'page' ? { step: { ...step, page: { ...step.page, body: '' } }, body } : { step };
    const bytes = await this.pool.run({ ...task, maxEvents: this.limits.maxEvents } satisfies ThreadTask, { signal });
    if (body) this.giveBack(body);
    return resultOf(bytes, this.limits.maxEvents);
  }

  /** A page's body in the smallest spare buffer that fits it, taken from the spares, or in a new one (see sharedBody). */
  private pageBody(body: string): Uint8Array {
    return sharedBody(body, (length) => {
      let best = -1;
      this.spareBodies.forEach((spare, i) => {
        if (spare.byteLength >= length && (best < 0 || spare.byteLength < this.spareBodies[best]!.byteLength)) best = i;
      });
      return best < 0 ? undefined : this.spareBodies.splice(best, 1)[0];
    });
  }

  private giveBack(body: Uint8Array): void {
    if (this.spareBodies.length <= this.limits.threads) this.spareBodies.push(body.buffer as SharedArrayBuffer);
  }

  close(): Promise<void> {
    return this.pool.close({ force: true });
  }
}

/**
 * The search's own end: its deadline running out is the website not read in time (the search says so and goes
 * on), anything else its cancellation.
 */
function searchEnded(reason: unknown, cause: unknown): Error {
  if (reason instanceof DOMException && reason.name === 'TimeoutError') return new ReadingOverLimit('time', "the search's deadline");
  return new SearchError('aborted', 'The search was cancelled.', true, { cause });
}

/** A step's answer as it arrives from its thread: the result, or the output bound it went past. */
function resultOf(bytes: Uint8Array, maxEvents: number): StepResult {
  const answer = decodeAnswer(bytes);
  if ('overEvents' in answer) throw new ReadingOverLimit('events', `${answer.overEvents} > ${maxEvents}`);
  return answer.result;
}
