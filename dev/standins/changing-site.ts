/**
 * An events page that changes between reads, so timer runs find new and changed events for real. Each name
 * (/sites/changing/<name>.html) has its own counter, so tests and people do not disturb each other:
 * read 1 lists three events; read 2 adds a fourth; read 3 and later move one (new date, schema.org
 * EventRescheduled) and cancel another (EventCancelled). `?stage=1..3` shows a stage without counting a read.
 * Dates are fixed at a name's first read, a few weeks ahead, so the events stay upcoming.
 */

interface ChangingSite {
  reads: number;
  base: number;
}

const sites = new Map<string, ChangingSite>();
const DAY = 86_400_000;

const iso = (ms: number, hour: number) => `${new Date(ms).toISOString().slice(0, 10)}T${String(hour).padStart(2, '0')}:00:00+00:00`;

function events(base: number, stage: number) {
  const origin = 'https://changing-events.example';
  const list = [
    {
      name: 'Data Engineering Night',
      startDate: iso(base + 14 * DAY, 18),
      url: `${origin}/events/data-engineering-night`,
      place: 'Kulturbrauerei',
    },
    {
      name: 'Open Source AI Meetup',
      startDate: iso(base + 21 * DAY, 18),
      url: `${origin}/events/open-source-ai`,
      place: 'c-base',
      ...(stage >= 3 ? { startDate: iso(base + 23 * DAY, 19), eventStatus: 'https://schema.org/EventRescheduled' } : {}),
    },
    {
      name: 'Vector Databases Workshop',
      startDate: iso(base + 28 * DAY, 9),
      url: `${origin}/events/vector-db-workshop`,
      place: 'Factory Berlin',
      ...(stage >= 3 ? { eventStatus: 'https://schema.org/EventCancelled' } : {}),
    },
  ];
  if (stage >= 2) {
    list.push({
      name: 'Robotics Demo Day',
      startDate: iso(base + 35 * DAY, 13),
      url: `${origin}/events/robotics-demo-day`,
      place: 'Motorwerk',
    });
  }
  return list;
}

/** The page for a name: advances its counter unless a stage is asked for. */
export function changingSitePage(name: string, askedStage: number | null, now = Date.now()): string {
  let site = sites.get(name);
  if (!site) {
    site = { reads: 0, base: Math.floor(now / DAY) * DAY };
    sites.set(name, site);
  }
  const stage = askedStage ?? Math.min(++site.reads, 3);
  const list = events(site.base, stage);
  const jsonLd = {
    '@context': 'https://schema.org',
    '@graph': list.map((e) => ({
      '@type': 'Event',
      name: e.name,
      startDate: e.startDate,
      eventStatus: 'eventStatus' in e ? e.eventStatus : 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      location: { '@type': 'Place', name: e.place, address: { '@type': 'PostalAddress', addressLocality: 'Berlin', addressCountry: 'DE' } },
      url: e.url,
    })),
  };
  const items = list
    .map((e) => {
      const status = 'eventStatus' in e ? (String(e.eventStatus).endsWith('Cancelled') ? ' (cancelled)' : ' (new date)') : '';
      return `<li><a href="${e.url}">${e.name}</a>${status}: ${e.startDate.slice(0, 16).replace('T', ' ')} UTC, ${e.place}, Berlin</li>`;
    })
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Changing Events Berlin</title><script type="application/ld+json">${JSON.stringify(jsonLd)}</script></head><body><main><h1>Changing Events Berlin</h1><p>Stage ${stage} of 3.</p><ul>${items}</ul></main></body></html>`;
}
