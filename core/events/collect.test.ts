import { describe, expect, it } from 'vitest';
import { useGeminiStandin } from '../../dev/harness/gemini-standin-client';
import { captureLogs } from '../../test/support/logs';
import type { EventFact } from '../website/event-fact';
import type { LeftOut } from '../reading/read-pages';
import { collectEvents } from './collect';
import { eventsFromFacts } from './from-facts';

/** Nothing a page holds is left out silently: what a bound or a series' limit drops is logged with the page. */
describe('collectEvents tells the operator what it left out', () => {
  const served = useGeminiStandin({ chunkDelayMs: 0 });
  const page = 'https://calendar.example/events';

  // As the reading pool gives a website back: its facts, their events and what those left out.
  const collect = (events: EventFact[], droppedEvents?: number) => {
    const logs = captureLogs();
    const facts = { url: page, events, text: '', ...(droppedEvents ? { droppedEvents } : {}) };
    const leftOut: LeftOut[] = [];
    const onDropped = (what: string, count: number) => leftOut.push({ what, count });
    const found = eventsFromFacts(facts, { searcherTimezone: 'Europe/Berlin', now: new Date(), onDropped });
    const run = collectEvents(
      { gemini: served.gemini, logger: logs.logger },
      {
        settings: { model: 'gemini-flash-latest', thinking: 'auto' },
        prompt: 'QUESTION: meetups',
        answer: 'No events.',
        sources: [],
        website: { ...facts, found, leftOut },
        userTimezone: 'Europe/Berlin',
      },
    );
    return run.then((found) => ({ found, lines: logs.lines }));
  };

  it('the events a reading left out past its bound', async () => {
    const { found, lines } = await collect([{ name: 'Kept', startAt: '2026-12-01' }], 1_234);
    expect(found.map((e) => e.title)).toContain('Kept');
    expect(lines).toContainEqual(
      expect.objectContaining({ website: page, count: 1_234, msg: 'left out 1234 events past the bound of one reading' }),
    );
  });

  it('the occurrences of a series past its limit', async () => {
    const daily: EventFact = {
      name: 'Daily stand-up',
      startAt: '2026-11-20T09:00',
      timezone: 'Europe/Berlin',
      recurrence: { rrule: 'FREQ=DAILY', rdates: [], exdates: [] },
    };
    const { lines } = await collect([daily]);
    expect(
      lines.some((l) => l.website === page && typeof l.count === 'number' && l.count > 0 && /^left out \d+ occurrences/.test(l.msg)),
    ).toBe(true);
  });
});
