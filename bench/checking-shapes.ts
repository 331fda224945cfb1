import type { FoundEvent } from '../core/contract/event';
import { checkEvents } from '../core/verification/check-events';
import { startCheckingSite } from '../dev/harness/checking-shapes';
import { foundEvent } from '../dev/harness/found-event';
import type { Row } from './lib/report';

export const CHECKING_SHAPES_METHOD =
  "Hostile shapes against the check of an answer's events (core/verification/check-events.ts), each a tiny page " +
  'served on loopback under two names (dev/harness/checking-shapes.ts) and checked as a search checks them: invented ' +
  'events on a calendar titled "Berlin" every hour and "Night" every half hour, "AI Summit Berlin" on a page whose only ' +
  'event is "AI", an h-event hidden by display:none on a page saying "CANCELLED. There are no events.", and a link that ' +
  'redirects to another site.';

/** What the check made of each shape: how many invented events it confirmed or corrected, and the redirect's sites. */
export async function checkingShapeRows(): Promise<Row[]> {
  const site = await startCheckingSite();
  try {
    const model = (title: string, startsAt: string, url: string): FoundEvent =>
      foundEvent({ key: title, title, starts_at: startsAt, city: 'Berlin', url });
    const { events } = await checkEvents(
      {
        config: {
          eventChecking: { maxPages: 10, userAgent: 'EventFinder/1.0 (bench)' },
          websiteFetchAllow: site.allow,
          queuePrefix: 'bench-checking-shapes',
          reading: { timeLimitMs: 10_000, heapMb: 256, maxEvents: 20_000, threads: 1, queueLimit: 32 },
        },
        resolve: site.resolve,
      },
      {
        events: [
          model('Quantum Computing Summit Berlin', '2027-03-02T19:00:00+01:00', site.at('cited.test', '/generic.html')),
          model('Blockchain Summit Berlin', '2027-03-02T14:00:00+01:00', site.at('cited.test', '/generic.html')),
          model('Berlin Techno Night', '2027-03-02T23:30:00+01:00', site.at('cited.test', '/generic.html')),
          model('AI Summit Berlin', '2027-03-03T10:00:00+01:00', site.at('cited.test', '/ai.html')),
          model('Berlin AI Night', '2027-03-02T19:00:00+01:00', site.at('cited.test', '/cancelled.html')),
          model('Berlin Machine Learning Meetup', '2027-03-02T19:00:00+01:00', site.at('cited.test', '/moved.html')),
        ],
        sources: [],
        website: null,
        searcherTimezone: 'Europe/Berlin',
        now: new Date('2027-02-20T12:00:00Z'),
      },
    );
    const status = (i: number) => events[i]?.verification?.status;
    const taken = (i: number) => (status(i) === 'confirmed' || status(i) === 'corrected' ? 1 : 0);
    const generic = taken(0) + taken(1) + taken(2);
    const moved = events[5]?.verification;
    const bothSites =
      moved?.status === 'confirmed' &&
      moved.source_url === site.at('cited.test', '/moved.html') &&
      moved.landing_url === site.at('landing.test', '/meetup.html')
        ? 1
        : 0;
    return [
      {
        metric: 'checking: invented "… Summit Berlin" / "… Night" on a calendar of "Berlin" and "Night", confirmed or corrected',
        value: generic,
        unit: 'of 3',
        goal: '= 0',
        met: generic === 0,
      },
      {
        metric: 'checking: "AI Summit Berlin" against a page whose only event is "AI", confirmed or corrected',
        value: taken(3),
        unit: 'of 1',
        goal: '= 0',
        met: taken(3) === 0,
      },
      {
        metric: 'checking: a display:none h-event on a page saying "CANCELLED. There are no events.", confirmed',
        value: taken(4),
        unit: 'of 1',
        goal: '= 0',
        met: taken(4) === 0,
      },
      {
        metric: 'checking: a link redirecting to another site, shown as the cited site with the landing site beside it',
        value: bothSites,
        unit: 'of 1',
        goal: '= 1',
        met: bothSites === 1,
      },
    ];
  } finally {
    await site.close();
  }
}
