import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { SearchError } from '../search-error';
import type { WebsitePage } from '../website/fetch';
import { pageKind } from '../website/page-kind';
import type { PagePart } from '../website/page-parts';
import type { PageStep, ReadingStep, StepResult } from './read-pages';
import type { ThreadTask } from './thread';
import { SpareCores } from './spare-core';
import { decodeAnswer, sharedBody } from './thread-wire';

/**
 * piscina's transferList: an array of ports and buffers at run time, but typed after MessagePort.postMessage's last
 * overload, which @types/node 26 makes its options object.
 */
export type TransferList = NonNullable<NonNullable<Parameters<Piscina['run']>[1]>['transferList']>;

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

/**
 * From this size a page's reading in parts pays for its second parse and its parts' crossing (decision 083);
 * below it one thread reads a page in a few milliseconds.
 */
export const PARTS_FROM_CHARS = 256 * 1024;

const PAGE_PARTS: PagePart[] = ['rdf', 'rest'];

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

  /** Pages of at least this many characters are read in parts (see runInParts). */
  private readonly partsFrom: number;
  /** Whether the machine has cores to spare for a reading's second part (see SpareCores). */
  private readonly spareCore: () => boolean;
  private readonly cores?: SpareCores;
  /** Tasks handed to the threads and not yet answered, queued or running. */
  private tasks = 0;
  /** Readings read in parts so far (see runInParts). */
  private partsRead = 0;
  /**
   * Buffers readings shared their pages in, written again by the next ones (see sharedBody), one per thread and
   * one more at most. A reading takes one while it runs and gives it back only when it ends with its answer: a
   * task stopped at a limit may still be read by a thread being ended.
   */
  private readonly spareBodies: SharedArrayBuffer[] = [];

  constructor(
    readonly limits: ReadingLimits,
    options: { partsFromChars?: number; spareCore?: () => boolean } = {},
  ) {
    this.partsFrom = options.partsFromChars ?? PARTS_FROM_CHARS;
    if (options.spareCore) this.spareCore = options.spareCore;
    else if (limits.threads >= 2) {
      const cores = new SpareCores();
      this.cores = cores;
      this.spareCore = () => cores.spare;
    } else this.spareCore = () => false;
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
   * search's own signal ends it. A large HTML page is read in two threads at once when the pool has two: its
   * parts (see PagePart) side by side, then joined in one of them (decision 083).
   */
  async run(step: ReadingStep, timeMs: number, signal?: AbortSignal): Promise<StepResult> {
    if (step.kind === 'page' && this.readsInParts(step.page)) return this.runInParts(step, timeMs, signal);
    // A page's body crosses as bytes shared with the thread (see ThreadTask.body), the answer as bytes moved out.
    const body = step.kind === 'page' ? this.pageBody(step.page.body) : undefined;
    const task = body && step.kind === 'page' ? { step: { ...step, page: { ...step.page, body: '' } }, body } : { step };
    const { bytes } = await this.runTask(task, [], timeMs, signal);
    if (body) this.giveBack(body);
    return resultOf(bytes, this.limits.maxEvents);
  }

  /**
   * A large HTML page, when no other reading is queued or running and other processes leave the machine cores
   * to spare: on a busy pool or a busy machine the two parts would only take turns, and the second parse add
   * to the work.
   */
  private readsInParts(page: WebsitePage): boolean {
    return (
      this.limits.threads >= 2 &&
      this.tasks === 0 &&
      page.body.length >= this.partsFrom &&
      pageKind(page.contentType, page.body) === 'html' &&
      this.spareCore()
    );
  }

  /**
   * A page's two parts in two threads at once, each held to the time limit, then joined in one thread within
   * what the slower part left of it. A part past a limit stops the other and drops the reading whole, as one
   * reading past it would. The page's bytes are written once into a buffer the three tasks share.
   */
  private async runInParts(step: PageStep, timeMs: number, signal?: AbortSignal): Promise<StepResult> {
    this.partsRead++;
    const body = this.pageBody(step.page.body);
    const bodyless: PageStep = { ...step, page: { ...step.page, body: '' } };
    const stop = new AbortController();
    const parts = await Promise.all(
      PAGE_PARTS.map((part) => this.runTask({ step: bodyless, body, part }, [], timeMs, signal, stop.signal)),
    ).catch((err: unknown) => {
      // The first part to fail is the reading's reason; the other is stopped, its own end unheard.
      stop.abort();
      throw err;
    });
    const spent = Math.max(...parts.map((p) => p.workMs));
    const joined = await this.runTask(
      { step: bodyless, body, parts: parts.map((p) => p.bytes) },
      parts.map((p) => p.bytes.buffer as ArrayBuffer),
      timeMs - spent,
      signal,
    );
    this.giveBack(body);
    return resultOf(joined.bytes, this.limits.maxEvents);
  }

  /**
   * One task in a thread within `timeMs`, counted from when a thread takes it; its answer and its time there.
   * `signal`: the search's own (its end is the search's cancellation); `stop`: the reading ends the task itself.
   */
  private async runTask(
    task: Omit<ThreadTask, 'maxEvents' | 'started'>,
    transfer: ArrayBuffer[],
    timeMs: number,
    signal?: AbortSignal,
    stop?: AbortSignal,
  ): Promise<{ bytes: Uint8Array; workMs: number }> {
    // The clock starts when a thread takes the step: a thread starting up (after one was ended) or a queue
    // behind other readings is not this page's cost.
    const { port1, port2 } = new MessageChannel();
    const ended = new AbortController();
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    let startedAt: number | undefined;
    port1.once('message', () => {
      startedAt = performance.now();
      timer = setTimeout(
        () => {
          timedOut = true;
          ended.abort();
        },
        Math.max(1, Math.round(timeMs)),
      );
    });
    // The other signals are listened to rather than joined with AbortSignal.any, whose joined signals are let go
    // through weak references the garbage collector must process on the main thread.
    const end = () => ended.abort();
    for (const other of [signal, stop]) {
      if (other?.aborted) ended.abort();
      other?.addEventListener('abort', end, { once: true });
    }
    let bytes: Uint8Array;
    this.tasks++;
    try {
      bytes = await this.pool.run({ ...task, maxEvents: this.limits.maxEvents, started: port2 } satisfies ThreadTask, {
        signal: ended.signal,
        transferList: [port2, ...transfer] as unknown as TransferList,
      });
    } catch (err) {
      if (signal?.aborted) throw new SearchError('aborted', 'The search was cancelled.', true, { cause: err });
      if (timedOut) throw new ReadingOverLimit('time', `${Math.round(timeMs)} ms`);
      if ((err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw new ReadingOverLimit('heap', `${this.limits.heapMb} MB`);
      throw new ReadingOverLimit('failed', (err as Error).message);
    } finally {
      this.tasks--;
      clearTimeout(timer);
      port1.close();
      for (const other of [signal, stop]) other?.removeEventListener('abort', end);
    }
    return { bytes, workMs: startedAt === undefined ? 0 : performance.now() - startedAt };
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

  /** How many readings this pool has read in parts. */
  get readingsInParts(): number {
    return this.partsRead;
  }

  close(): Promise<void> {
    this.cores?.stop();
    return this.pool.close({ force: true });
  }
}

/** A step's answer as it arrives from its thread: the result, or the output bound it went past. */
function resultOf(bytes: Uint8Array, maxEvents: number): StepResult {
  const answer = decodeAnswer(bytes);
  if ('overEvents' in answer) throw new ReadingOverLimit('events', `${answer.overEvents} > ${maxEvents}`);
  return answer.result;
}
