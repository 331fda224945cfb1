import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HOSTILE_SITES } from '../../dev/harness/hostile-sites';
import { loadCorpus } from '../../dev/harness/real-world-corpus';
import { SearchError } from '../search-error';
import { READING_QUEUE_FULL, ReadingOverLimit, ReadingPool } from './pool';
import { listedForTheMainThread, type PageStep, readStep } from './read-pages';

const limits = { timeLimitMs: 60_000, heapMb: 256, maxEvents: 20_000, threads: 2, queueLimit: 32 };
const user = { reader: 'user' };
// The product's reading thread, but for a page at /endless, which holds its thread until a limit ends it.
const THREAD = fileURLToPath(new URL('../../test/support/endless-reading-thread.ts', import.meta.url));
const pool = new ReadingPool(limits, THREAD);
afterAll(() => pool.close());

const stepOf = (url: string, contentType: string, body: string, now: string): PageStep => ({
  kind: 'page',
  page: { url, contentType, body },
  context: { searcherTimezone: 'Europe/Berlin', now: Date.parse(now) },
});

describe('the reading pool', () => {
  it('reads every page of the corpus in a thread exactly as the main thread reads it', { timeout: 300_000 }, async () => {
    const steps = loadCorpus().map((f) => stepOf(f.page_url, f.contentType, f.body, f.now));
    expect(steps.length).toBeGreaterThanOrEqual(90);
    for (const step of steps) {
      const read = await pool.run(step, limits.timeLimitMs, user);
      expect(JSON.stringify(read), step.page.url).toBe(JSON.stringify(listedForTheMainThread(readStep(step), step.context)));
    }
  });

  it('drops a reading past the time limit or whose search is cancelled, and reads the next one in a fresh thread', {
    timeout: 120_000,
  }, async () => {
    const tight = new ReadingPool({ ...limits, timeLimitMs: 300 }, THREAD);
    try {
      const microformats = HOSTILE_SITES.find((s) => s.name === '2 MB of microformats')!;
      const slow = stepOf('https://hostile.example/', microformats.contentType, microformats.body(), '2026-05-01T12:00:00Z');
      await tight.ready;
      const err = await tight.run(slow, 300, user).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ReadingOverLimit);
      expect((err as ReadingOverLimit).limit).toBe('time');
      const next = stepOf(
        'https://shows.example/',
        'text/html',
        '<div class="h-event"><p class="p-name">After</p></div>',
        '2026-05-01T12:00:00Z',
      );
      expect((await tight.run(next, 60_000, user)).events.map((e) => e.title)).toEqual(['After']);
      const cancel = new AbortController();
      const cancelled = tight.run(slow, 60_000, { ...user, signal: cancel.signal }).catch((e: unknown) => e);
      cancel.abort();
      expect(await cancelled).toMatchObject({ code: 'aborted' });
      expect((await tight.run(next, 60_000, user)).events.map((e) => e.title)).toEqual(['After']);
    } finally {
      await tight.close();
    }
  });
});

// A page whose reading always runs to the time limit.
const endlessReading = () =>
  stepOf('https://hostile.example/endless.ics', 'text/calendar', 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', '2026-05-01T12:00:00Z');
const quickPage = stepOf(
  'https://shows.example/',
  'text/html',
  '<div class="h-event"><p class="p-name">Quick</p></div>',
  '2026-05-01T12:00:00Z',
);

/** Runs a reading and notes in `order` how it ended: `name`, or `name time` / `name busy` / … for a limit or refusal. */
function noted(pool: ReadingPool, order: string[]) {
  return (name: string, step: PageStep, timeMs: number, reader: string, signal?: AbortSignal) =>
    pool.run(step, timeMs, { reader, signal }).then(
      () => {
        order.push(name);
      },
      (err: unknown) => {
        order.push(`${name} ${err instanceof ReadingOverLimit ? err.limit : (err as SearchError).code}`);
        return err;
      },
    );
}

// One thread, a reading past 2 s of it giving the thread up while another user's waits, two readings waiting at most.
const one = new ReadingPool({ ...limits, threads: 1, timeLimitMs: 4_000, queueLimit: 2 }, THREAD);
afterAll(() => one.close());

describe('the reading pool shared between users', () => {
  it('reads another user’s page while one user’s slow calendars take every thread they may', { timeout: 120_000 }, async () => {
    await pool.ready;
    const order: string[] = [];
    const run = noted(pool, order);
    const hostile = [run('hostile 1', endlessReading(), 8_000, 'hostile'), run('hostile 2', endlessReading(), 8_000, 'hostile')];
    await run('other user', quickPage, 60_000, 'other');
    await Promise.all(hostile);
    expect(order).toEqual(['other user', 'hostile 1 time', 'hostile 2 time']);
  });

  it('reads a user’s waiting reading before another user’s next one, the last thread given up by a reading past half its time', {
    timeout: 120_000,
  }, async () => {
    await one.ready;
    const order: string[] = [];
    const run = noted(one, order);
    const stop = new AbortController();
    const first = run('hostile 1', endlessReading(), 60_000, 'hostile');
    const second = run('hostile 2', endlessReading(), 60_000, 'hostile', stop.signal);
    await run('other user', quickPage, 60_000, 'other');
    stop.abort();
    await Promise.all([first, second]);
    expect(order).toEqual(['hostile 1 time', 'other user', 'hostile 2 aborted']);
  });

  it('ends a reading whose time runs out while it waits for a thread as not read in time', { timeout: 120_000 }, async () => {
    await one.ready;
    const order: string[] = [];
    const run = noted(one, order);
    const stop = new AbortController();
    const hostile = run('hostile', endlessReading(), 60_000, 'hostile', stop.signal);
    const waited = await run('other user', quickPage, 500, 'other');
    expect(waited).toBeInstanceOf(ReadingOverLimit);
    expect((waited as ReadingOverLimit).message).toMatch(/all of it waiting for a thread/);
    // The search's own deadline ending the wait is the website not read in time either, never a cancellation.
    const deadline = new AbortController();
    const late = run('late', quickPage, 60_000, 'late', deadline.signal);
    deadline.abort(new DOMException('No answer within 90000 ms.', 'TimeoutError'));
    await late;
    stop.abort();
    await hostile;
    expect(order).toEqual(['other user time', 'late time', 'hostile aborted']);
  });

  it('refuses a reading with a sentence when too many wait, the reader with the most waiting first', { timeout: 120_000 }, async () => {
    await one.ready;
    const order: string[] = [];
    const run = noted(one, order);
    const stop = new AbortController();
    const running = run('hostile 1', endlessReading(), 60_000, 'hostile', stop.signal);
    const waitingFirst = run('hostile 2', endlessReading(), 60_000, 'hostile', stop.signal);
    const waiting = run('hostile 3', endlessReading(), 60_000, 'hostile', stop.signal);
    const other = run('other user', quickPage, 60_000, 'other', stop.signal);
    const refused = await waiting;
    expect(refused).toBeInstanceOf(SearchError);
    expect(refused).toMatchObject({ code: 'reading_busy', message: READING_QUEUE_FULL, retryable: true });
    await run('other user again', quickPage, 60_000, 'other');
    expect(order).toEqual(['hostile 3 reading_busy', 'other user again reading_busy']);
    stop.abort();
    await Promise.all([running, waitingFirst, other]);
  });
});
