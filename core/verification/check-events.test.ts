import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckingHost, checkingPage, hEvent, RED_TEAM_PAGES, startCheckingSite } from '../../dev/harness/checking-shapes';
import { foundEvent } from '../../dev/harness/found-event';
import type { FoundEvent } from '../contract/event';
import type { Source } from '../gemini/answer';
import { type CheckEventsInput, checkEvents } from './check-events';

/**
 * The check against pages served on loopback under two names (cited.test and landing.test, both 127.0.0.1):
 * the hostile shapes as tiny pages, and the shapes of real pages that defeated the matching order.
 * Expected values are written by hand from the pages below.
 */
const NOW = new Date('2027-02-20T12:00:00Z');
const SEARCHER = 'Europe/Berlin';

const PAGES: Record<string, string> = {
  ...RED_TEAM_PAGES,
  // A match, and under a shorter near-identical title its TV broadcast half an hour earlier.
  '/football.html': checkingPage(
    hEvent('Bayern vs Real Madrid', '2027-03-02T20:15:00+01:00') +
      hEvent('UEFA Champions League: FC Bayern Munich – Real Madrid', '2027-03-02T20:45:00+01:00'),
  ),
  // The event in words only, with no structured data on the page.
  '/text-only.html': checkingPage('<h2>Berlin Machine Learning Meetup</h2><p>Tuesday 2 March 2027, 7 pm, at the Factory.</p>'),
  // Two events whose titles share a prefix.
  '/runs.html': checkingPage(hEvent('Harbour Run', '2027-03-06T09:00:00+01:00') + hEvent('Harbour Run North', '2027-03-06T10:30:00+01:00')),
  // hCalendar whose start sits in an element outside the event, named by its itemref.
  '/itemref.html': checkingPage(
    `<div class="vevent" itemref="ml-when"><h2 class="summary">Berlin Machine Learning Meetup</h2></div>
    <p id="ml-when">Tuesday, <abbr class="dtstart" title="2027-03-02T19:00:00+01:00">2 March, 7 pm</abbr></p>`,
  ),
};

describe('checking events against the pages an answer cites', () => {
  let site: Awaited<ReturnType<typeof startCheckingSite>>;
  let requested: string[];
  const at = (host: CheckingHost, path: string) => site.at(host, path);

  beforeAll(async () => {
    site = await startCheckingSite(PAGES);
    requested = site.requested;
  });
  afterAll(() => site.close());

  const check = (events: FoundEvent[], sources: Source[] = [], more: Partial<CheckEventsInput> = {}) =>
    checkEvents(
      {
        config: {
          eventChecking: { maxPages: 5, userAgent: 'EventFinder/1.0 (test)' },
          websiteFetchAllow: site.allow,
          queuePrefix: 'test-check-events',
          reading: { timeLimitMs: 10_000, heapMb: 256, maxEvents: 20_000, threads: 1, queueLimit: 32 },
        },
        resolve: site.resolve,
      },
      { events, sources, website: null, searcherTimezone: SEARCHER, now: NOW, ...more },
    );
  const model = (title: string, startsAt: string, url: string | null) =>
    foundEvent({ key: title, title, starts_at: startsAt, all_day: startsAt.length === 10, city: 'Berlin', url });

  it('confirms none of the invented events on a calendar of one-word titles, and corrects nothing to them', async () => {
    const generic = at('cited.test', '/generic.html');
    const ai = at('cited.test', '/ai.html');
    const { events } = await check([
      model('Quantum Computing Summit Berlin', '2027-03-02T19:00:00+01:00', generic),
      model('Blockchain Summit Berlin', '2027-03-02T14:00:00+01:00', generic),
      model('Berlin Techno Night', '2027-03-02T23:30:00+01:00', generic),
      model('AI Summit Berlin', '2027-03-03T10:00:00+01:00', ai),
    ]);
    for (const e of events) {
      expect(e.verification, e.title).toEqual({
        status: 'unconfirmed',
        source_url: null,
        model_starts_at: null,
        landing_url: null,
        reason: 'not_listed',
      });
    }
    // Nothing was corrected: the answer's dates stand.
    expect(events.map((e) => e.starts_at)).toEqual([
      '2027-03-02T19:00:00+01:00',
      '2027-03-02T14:00:00+01:00',
      '2027-03-02T23:30:00+01:00',
      '2027-03-03T10:00:00+01:00',
    ]);
  });

  it('confirms a right date beside a near-titled neighbour, and corrects a wrong one to the exact title', async () => {
    const football = at('cited.test', '/football.html');
    const runs = at('cited.test', '/runs.html');
    const { events } = await check([
      model('Bayern Munich vs Real Madrid', '2027-03-02T20:45:00+01:00', football),
      model('Harbour Run North', '2027-03-06T10:30:00+01:00', runs),
      { ...model('Harbour Run North', '2027-03-06T09:15:00+01:00', runs), key: 'wrong' },
    ]);
    expect(events.map((e) => [e.verification?.status, e.starts_at])).toEqual([
      ['confirmed', '2027-03-02T20:45:00+01:00'],
      ['confirmed', '2027-03-06T10:30:00+01:00'],
      ['corrected', '2027-03-06T10:30:00+01:00'],
    ]);
    expect(events[2]?.verification?.model_starts_at).toBe('2027-03-06T09:15:00+01:00');
  });

  it('confirms nothing from markup hidden from readers, and a right date from hCalendar properties an itemref names', async () => {
    const { events } = await check([
      model('Berlin AI Night', '2027-03-02T19:00:00+01:00', at('cited.test', '/cancelled.html')),
      model('Berlin Machine Learning Meetup', '2027-03-02T19:00:00+01:00', at('cited.test', '/itemref.html')),
    ]);
    // The page's only event is hidden, so it gives no event to check against: the card claims nothing either way.
    expect(events.map((e) => [e.verification?.status, e.verification?.reason])).toEqual([
      ['unconfirmed', 'no_event_data'],
      ['confirmed', null],
    ]);
  });

  it('names the site the answer cited, and the other site its link redirected to beside it', async () => {
    const { events } = await check([model('Berlin Machine Learning Meetup', '2027-03-02T19:00:00+01:00', at('cited.test', '/moved.html'))]);
    expect(events[0]?.verification).toEqual({
      status: 'confirmed',
      source_url: at('cited.test', '/moved.html'),
      landing_url: at('landing.test', '/meetup.html'),
      model_starts_at: null,
      reason: null,
    });
    expect(events[0]?.source_url).toBe(at('cited.test', '/moved.html'));
  });

  it('takes the page a grounding redirect leads to as the cited page', async () => {
    const sources = [{ uri: at('landing.test', '/grounding-api-redirect/meetup'), title: 'cited.test', site: '' }];
    const { events } = await check([model('Berlin Machine Learning Meetup', '2027-03-02T19:00:00+01:00', null)], sources);
    expect(events[0]?.verification).toMatchObject({ status: 'confirmed', source_url: at('cited.test', '/meetup.html'), landing_url: null });
  });

  it('asks robots.txt before a grounding link that is the page itself, and says why an event is not confirmed', async () => {
    requested.length = 0;
    const sources = [{ uri: at('cited.test', '/private/meetup.html'), title: 'cited.test', site: 'cited.test' }];
    const refused = await check([model('Berlin Machine Learning Meetup', '2027-03-02T19:00:00+01:00', null)], sources);
    expect(refused.events[0]?.verification).toMatchObject({ status: 'unconfirmed', reason: 'robots' });
    expect(requested).toEqual(['cited.test/robots.txt']);

    const missing = await check([model('Berlin Machine Learning Meetup', '2027-03-02T19:00:00+01:00', at('cited.test', '/gone.html'))]);
    expect(missing.events[0]?.verification).toMatchObject({ status: 'unconfirmed', reason: 'unreachable' });
    const none = await check([model('Berlin Machine Learning Meetup', '2027-03-02T19:00:00+01:00', null)]);
    expect(none.events[0]?.verification).toMatchObject({ status: 'unconfirmed', reason: 'no_page' });
  });

  it('says a page that lists its events as text only gave nothing to check, not that it lacks the event', async () => {
    const { events } = await check([
      model('Berlin Machine Learning Meetup', '2027-03-02T19:00:00+01:00', at('cited.test', '/text-only.html')),
    ]);
    expect(events[0]?.verification).toMatchObject({ status: 'unconfirmed', reason: 'no_event_data' });
    expect(events[0]?.starts_at).toBe('2027-03-02T19:00:00+01:00');
    // Cited beside a page that gives events as data, and not this one: that page does not list it.
    const sources = ['/text-only.html', '/runs.html'].map((path) => ({
      uri: at('cited.test', path),
      title: 'cited.test',
      site: 'cited.test',
    }));
    const both = await check([model('Berlin Machine Learning Meetup', '2027-03-02T19:00:00+01:00', null)], sources);
    expect(both.events[0]?.verification).toMatchObject({ status: 'unconfirmed', reason: 'not_listed' });
  });
});
