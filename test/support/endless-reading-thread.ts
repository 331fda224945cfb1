import readInThread, { type ThreadTask } from '../../core/reading/thread';

/** How long an endless reading holds its thread at most, should nothing end it. */
const AT_MOST_MS = 180_000;

/**
 * A reading thread that reads as the product's does (./core/reading/thread.ts, whose warm-up it runs), except a
 * page whose path starts with /endless: that one holds its thread until the pool ends it at a limit, as a page
 * slow in some way no parser bound knows yet would. The pool's turns and limits are what is tested with it.
 */
export default function readOrHold(task: ThreadTask): unknown {
  if (task.step.kind === 'page' && new URL(task.step.page.url).pathname.startsWith('/endless')) {
    const until = Date.now() + AT_MOST_MS;
    while (Date.now() < until) {
      // Busy, as a parser is: only the thread's end stops it.
    }
  }
  return readInThread(task);
}
