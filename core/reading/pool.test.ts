import { afterAll, describe, expect, it } from 'vitest';
import { HOSTILE_SITES } from '../../dev/harness/hostile-sites';
import { loadCorpus } from '../../dev/harness/real-world-corpus';
import { pageKind } from '../website/page-kind';
import { ReadingOverLimit, ReadingPool } from './pool';
import { listedForTheMainThread, type PageStep, readStep } from './read-pages';

const limits = { timeLimitMs: 60_000, heapMb: 256, maxEvents: 20_000, threads: 2 };
// Every HTML page read in parts, however small and however busy the machine, so the corpus's pages go that way.
const always = { partsFromChars: 0, spareCore: () => true };
const inParts = new ReadingPool(limits, always);
afterAll(() => inParts.close());

const stepOf = (url: string, contentType: string, body: string, now: string): PageStep => ({
  kind: 'page',
  page: { url, contentType, body },
  context: { searcherTimezone: 'Europe/Berlin', now: Date.parse(now) },
});

describe('the reading pool', () => {
  it('reads a page in two threads at once exactly as one thread reads it, for every HTML page of the corpus', {
    timeout: 300_000,
  }, async () => {
    const steps = loadCorpus()
      .filter((f) => pageKind(f.contentType, f.body) === 'html')
      .map((f) => stepOf(f.page_url, f.contentType, f.body, f.now));
    const before = inParts.readingsInParts;
    for (const step of steps) {
      const read = await inParts.run(step, limits.timeLimitMs);
      expect(JSON.stringify(read), step.page.url).toBe(JSON.stringify(listedForTheMainThread(readStep(step), step.context)));
    }
    expect(inParts.readingsInParts - before).toBe(steps.length);
  });

  it('reads a page whole while another reading holds its threads, or when the machine has no core to spare', async () => {
    const [first, second] = loadCorpus()
      .filter((f) => f.format === 'h-event')
      .map((f) => stepOf(f.page_url, f.contentType, f.body, f.now));
    const before = inParts.readingsInParts;
    const both = await Promise.all([inParts.run(first!, limits.timeLimitMs), inParts.run(second!, limits.timeLimitMs)]);
    expect(inParts.readingsInParts - before).toBe(1);
    expect(both[1]).toEqual(listedForTheMainThread(readStep(second!), second!.context));
    const busy = new ReadingPool(limits, { partsFromChars: 0, spareCore: () => false });
    try {
      expect(await busy.run(first!, limits.timeLimitMs)).toEqual(listedForTheMainThread(readStep(first!), first!.context));
      expect(busy.readingsInParts).toBe(0);
    } finally {
      await busy.close();
    }
  });

  it('drops a reading whose part goes past the time limit or whose search is cancelled, and reads the next one in fresh threads', {
    timeout: 120_000,
  }, async () => {
    const tight = new ReadingPool({ ...limits, timeLimitMs: 300 }, always);
    try {
      const microformats = HOSTILE_SITES.find((s) => s.name === '2 MB of microformats')!;
      const slow = stepOf('https://hostile.example/', microformats.contentType, microformats.body(), '2026-05-01T12:00:00Z');
      const err = await tight.run(slow, 300).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ReadingOverLimit);
      expect((err as ReadingOverLimit).limit).toBe('time');
      const next = stepOf(
        'https://shows.example/',
        'text/html',
        '<div class="h-event"><p class="p-name">After</p></div>',
        '2026-05-01T12:00:00Z',
      );
      expect((await tight.run(next, 60_000)).events.map((e) => e.title)).toEqual(['After']);
      // A search cancelled while its page is read in parts ends with the cancellation, not a limit.
      const before = tight.readingsInParts;
      const cancel = new AbortController();
      const cancelled = tight.run(slow, 60_000, cancel.signal).catch((e: unknown) => e);
      cancel.abort();
      expect(await cancelled).toMatchObject({ code: 'aborted' });
      expect(tight.readingsInParts - before).toBe(1);
      expect((await tight.run(next, 60_000)).events.map((e) => e.title)).toEqual(['After']);
    } finally {
      await tight.close();
    }
  });
});
