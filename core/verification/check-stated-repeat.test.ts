import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkingPage, hEvent, startCheckingSite } from '../../dev/harness/checking-shapes';
import { foundEvent } from '../../dev/harness/found-event';
import type { FoundEvent } from '../contract/event';
import { checkEvents } from './check-events';

/**
 * A repeat the answer stated in words (core/events/stated-repeat.ts) was checked against the answer's own start:
 * the page that confirms the start keeps it, the page that corrects the start takes it away. Pages served on
 * loopback; expected values by hand (2 March 2027 is a Tuesday, 3 March a Wednesday).
 */
const PAGES = {
  '/tuesday.html': checkingPage(hEvent('Rust Meetup Berlin', '2027-03-02T19:00:00+01:00')),
  '/wednesday.html': checkingPage(hEvent('Rust Meetup Berlin', '2027-03-03T19:00:00+01:00')),
};

describe('checking an event whose answer said how it repeats', () => {
  let site: Awaited<ReturnType<typeof startCheckingSite>>;
  beforeAll(async () => {
    site = await startCheckingSite(PAGES);
  });
  afterAll(() => site.close());

  const check = (events: FoundEvent[]) =>
    checkEvents(
      {
        config: {
          eventChecking: { maxPages: 5, userAgent: 'EventFinder/1.0 (test)' },
          websiteFetchAllow: site.allow,
          queuePrefix: 'test-check-stated-repeat',
          reading: { timeLimitMs: 10_000, heapMb: 256, maxEvents: 20_000, threads: 1, queueLimit: 32 },
        },
        resolve: site.resolve,
      },
      { events, sources: [], website: null, searcherTimezone: 'Europe/Berlin', now: new Date('2027-02-20T12:00:00Z') },
    );
  const meetup = (path: string) =>
    foundEvent({
      key: 'series:event:rust meetup berlin|berlin@2027-03-02T19:00',
      title: 'Rust Meetup Berlin',
      starts_at: '2027-03-02T19:00:00+01:00',
      timezone: 'Europe/Berlin',
      city: 'Berlin',
      url: site.at('cited.test', path),
      repeats: 'every second Tuesday',
      rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU',
    });

  it('keeps the repeat when the page confirms the start', async () => {
    const [e] = (await check([meetup('/tuesday.html')])).events;
    expect(e).toMatchObject({
      verification: { status: 'confirmed' },
      key: 'series:event:rust meetup berlin|berlin@2027-03-02T19:00',
      repeats: 'every second Tuesday',
      rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU',
    });
  });

  it('drops it when the page moves the start to a Wednesday', async () => {
    const [e] = (await check([meetup('/wednesday.html')])).events;
    expect(e?.verification?.status).toBe('corrected');
    expect(e?.starts_at).toBe('2027-03-03T19:00:00+01:00');
    expect(e?.repeats).toBeUndefined();
    expect(e?.rrule).toBeUndefined();
    expect(e?.key.startsWith('series:')).toBe(false);
  });
});
