/**
 * A page of events around Berlin and beyond, for trying a timer's filters (docs/decisions/timers-in-words-and-filters.md): one in Potsdam
 * (26 km from Berlin's centre as the tables place them), one in Munich, one online and one in Berlin
 * with "Crypto" in its name. Dates are a week or two after the day of the read, so they stay upcoming.
 */
const DAY = 86_400_000;

const day = (now: number, ahead: number, hour: number) =>
  `${new Date(Math.floor(now / DAY) * DAY + ahead * DAY).toISOString().slice(0, 10)}T${String(hour).padStart(2, '0')}:00:00+01:00`;

const place = (name: string, city: string) => ({
  '@type': 'Place',
  name,
  address: { '@type': 'PostalAddress', addressLocality: city, addressCountry: 'DE' },
});

export function regionEvents(now = Date.now()) {
  const origin = 'https://region-events.example';
  return [
    { name: 'Potsdam AI Meetup', startDate: day(now, 8, 18), mode: 'Offline', location: place('Wissenschaftspark', 'Potsdam') },
    { name: 'Munich ML Night', startDate: day(now, 9, 19), mode: 'Offline', location: place('Werk1', 'München') },
    {
      name: 'Online LLM Office Hours',
      startDate: day(now, 10, 17),
      mode: 'Online',
      location: { '@type': 'VirtualLocation', url: `${origin}/live` },
    },
    { name: 'Berlin Crypto Evening', startDate: day(now, 11, 19), mode: 'Offline', location: place('Factory', 'Berlin') },
  ].map((e, i) => ({ ...e, url: `${origin}/events/${i + 1}` }));
}

export function regionSitePage(now = Date.now()): string {
  const list = regionEvents(now);
  const jsonLd = {
    '@context': 'https://schema.org',
    '@graph': list.map((e) => ({
      '@type': 'Event',
      name: e.name,
      startDate: e.startDate,
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: `https://schema.org/${e.mode}EventAttendanceMode`,
      location: e.location,
      url: e.url,
    })),
  };
  const items = list.map((e) => `<li><a href="${e.url}">${e.name}</a>: ${e.startDate.slice(0, 16).replace('T', ' ')}</li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Events around Berlin</title><script type="application/ld+json">${JSON.stringify(jsonLd)}</script></head><body><main><h1>Events around Berlin</h1><ul>${items}</ul></main></body></html>`;
}
