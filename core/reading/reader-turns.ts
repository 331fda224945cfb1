/** A reading waiting for a thread: told when its turn comes, or why it never will. */
interface Waiting {
  go: () => void;
  refuse: (reason: unknown) => void;
}

/** How many readers' last turns are remembered (see ReaderTurns.served): far more than ever wait at once. */
const REMEMBERED = 10_000;

/**
 * Whose reading gets the next free thread of a process's reading pool. A reading waits behind its own reader's
 * (the user it is read for), never in front of another reader's: the next free thread goes to the waiting reader
 * who has gone longest without one, since their last turn began or ended, or since they came when they had none
 * (so a burst of new readers never goes in front of one who was served before they came), and one reader holds
 * at most `perReader` threads at once. At most `maxWaiting` readings wait: when a reading arrives at a full queue,
 * the reader with the most waiting readings gives up its newest, unless the newcomer's own reader has as many;
 * then the newcomer is refused. A turn lasts until `release`.
 *
 * Process memory on purpose: the threads are this process's, so is the order they are handed out in. What
 * must hold across processes (a user's searches at once, their rate) is decided in Redis before a reading.
 */
export class ReaderTurns {
  /** Readings waiting, by reader, readers in the order their first waiting reading came. */
  private readonly queue = new Map<string, Waiting[]>();
  private waitingCount = 0;
  /** Threads each reader holds. */
  private readonly holding = new Map<string, number>();
  private held = 0;
  /**
   * When each reader last began or ended a turn, or came when they had none, as a rising number; the oldest goes
   * first (a Map keeps them in that order).
   */
  private readonly served = new Map<string, number>();
  private turns = 0;

  constructor(
    private readonly threads: number,
    private readonly perReader: number,
    private readonly maxWaiting: number,
    /** What a reading refused at a full queue is told. */
    private readonly full: () => Error,
  ) {}

  /**
   * Waits for the reader's turn at a thread; `release` gives it back. Rejects with `full()` when refused, and
   * with the signal's reason when the signal ends the wait first.
   */
  take(reader: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const waiting: Waiting = {
        go: () => {
          signal.removeEventListener('abort', leave);
          resolve();
        },
        refuse: (reason) => {
          signal.removeEventListener('abort', leave);
          reject(reason);
        },
      };
      const leave = () => {
        if (this.drop(reader, waiting)) reject(signal.reason);
      };
      if (this.waitingCount >= this.maxWaiting && !this.makeRoom(reader)) {
        reject(this.full());
        return;
      }
      signal.addEventListener('abort', leave, { once: true });
      if (!this.served.has(reader)) this.note(reader);
      const own = this.queue.get(reader);
      if (own) own.push(waiting);
      else this.queue.set(reader, [waiting]);
      this.waitingCount++;
      this.next();
    });
  }

  /** Gives back a thread the reader's turn held, and hands it on. */
  release(reader: string): void {
    const holds = (this.holding.get(reader) ?? 1) - 1;
    if (holds > 0) this.holding.set(reader, holds);
    else this.holding.delete(reader);
    this.held--;
    this.note(reader);
    this.next();
  }

  /** Readings waiting for a thread. */
  get waiting(): number {
    return this.waitingCount;
  }

  /** Whether a reading of another reader than `reader` waits that could take a thread `reader` gives back. */
  waitingBesides(reader: string): boolean {
    for (const other of this.queue.keys()) if (other !== reader && (this.holding.get(other) ?? 0) < this.perReader) return true;
    return false;
  }

  private next(): void {
    while (this.held < this.threads) {
      let pick: string | undefined;
      let pickTurn = Number.POSITIVE_INFINITY;
      for (const reader of this.queue.keys()) {
        if ((this.holding.get(reader) ?? 0) >= this.perReader) continue;
        const turn = this.served.get(reader) ?? Number.NEGATIVE_INFINITY;
        if (turn < pickTurn) {
          pick = reader;
          pickTurn = turn;
        }
      }
      if (pick === undefined) return;
      const own = this.queue.get(pick)!;
      const waiting = own.shift()!;
      if (own.length === 0) this.queue.delete(pick);
      this.waitingCount--;
      this.holding.set(pick, (this.holding.get(pick) ?? 0) + 1);
      this.held++;
      this.note(pick);
      waiting.go();
    }
  }

  /** Notes a reader's turn beginning or ending, or their coming: they go after everyone noted before. */
  private note(reader: string): void {
    this.served.delete(reader);
    this.served.set(reader, this.turns++);
    if (this.served.size > REMEMBERED) this.served.delete(this.served.keys().next().value!);
  }

  /** Refuses the newest reading of the reader with the most waiting, when they are more than `reader`'s own. */
  private makeRoom(reader: string): boolean {
    let most: string | undefined;
    let count = this.queue.get(reader)?.length ?? 0;
    for (const [other, own] of this.queue) {
      if (own.length > count) {
        most = other;
        count = own.length;
      }
    }
    if (most === undefined) return false;
    const own = this.queue.get(most)!;
    const newest = own[own.length - 1]!;
    this.drop(most, newest);
    newest.refuse(this.full());
    return true;
  }

  /** Takes a waiting reading out of the queue; false when it is no longer there (its turn came). */
  private drop(reader: string, waiting: Waiting): boolean {
    const own = this.queue.get(reader);
    const at = own?.indexOf(waiting) ?? -1;
    if (!own || at < 0) return false;
    own.splice(at, 1);
    if (own.length === 0) this.queue.delete(reader);
    this.waitingCount--;
    return true;
  }
}
