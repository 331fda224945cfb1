import { Hono } from 'hono';
import { groundedEvents } from './grounded-answer';

/**
 * What the grounded answer's links lead to: Google-like grounding redirects (`/grounding-api-redirect/<page>`,
 * a 302 to the page, as `vertexaisearch.cloud.google.com/grounding-api-redirect/…` answers), the pages they
 * cite with the events in schema.org JSON-LD (dated from today, like the answer), and a robots.txt that keeps
 * automatic readers out of /sites/no-robots/.
 */
export const groundedSitesApp = new Hono();

export const STANDIN_ROBOTS_TXT = 'User-agent: *\nDisallow: /sites/no-robots/\n';
/** Where the "private address" grounding link redirects: a private address the website guard refuses. */
export const PRIVATE_REDIRECT_TARGET = 'http://10.20.30.40/events.html';

groundedSitesApp.get('/robots.txt', (c) => c.text(STANDIN_ROBOTS_TXT));

groundedSitesApp.get('/grounding-api-redirect/:target', (c) => {
  const target = c.req.param('target');
  if (target === 'private') return c.redirect(PRIVATE_REDIRECT_TARGET, 302);
  const page = target.startsWith('no-robots-') ? `no-robots/${target.slice('no-robots-'.length)}` : `grounded/${target}`;
  return c.redirect(`/sites/${page}.html`, 302);
});

const jsonLd = (event: object) =>
  `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', ...event })}</script>`;

function page(title: string, event: object, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${jsonLd(event)}</head><body><main><h1>${title}</h1>${body}</main></body></html>`;
}

/** The summit's own page: a two-day event, all day. */
function summitPage(): string {
  const { summit } = groundedEvents('');
  return page(
    'AI Summit Berlin',
    {
      '@type': 'Event',
      name: 'AI Summit Berlin',
      startDate: summit.startsAt,
      endDate: summit.endsAt,
      location: {
        '@type': 'Place',
        name: 'Estrel Congress Center',
        address: { '@type': 'PostalAddress', addressLocality: 'Berlin', addressCountry: 'DE' },
      },
    },
    `<p>${summit.label}, Estrel Congress Center, Berlin.</p>`,
  );
}

/**
 * The meetup's page: an evening in Berlin's time that repeats every second Tuesday, given as schema.org states a
 * series (an eventSchedule beside its first date); it lists no other event.
 */
function meetupPage(): string {
  const { meetup } = groundedEvents('');
  return page(
    'Berlin Machine Learning Meetup',
    {
      '@type': 'Event',
      name: 'Berlin Machine Learning Meetup',
      startDate: meetup.startsAt,
      endDate: meetup.endsAt,
      eventSchedule: {
        '@type': 'Schedule',
        repeatFrequency: 'P2W',
        byDay: 'https://schema.org/Tuesday',
        startTime: '19:00',
        endTime: '21:00',
        scheduleTimezone: 'Europe/Berlin',
      },
      location: {
        '@type': 'Place',
        name: 'Factory Berlin',
        address: { '@type': 'PostalAddress', addressLocality: 'Berlin', addressCountry: 'DE' },
      },
    },
    `<p>${meetup.label}, Factory Berlin.</p>`,
  );
}

for (const dir of ['grounded', 'no-robots']) {
  groundedSitesApp.get(`/sites/${dir}/ai-summit-berlin.html`, (c) => c.html(summitPage()));
  groundedSitesApp.get(`/sites/${dir}/berlin-ml-meetup.html`, (c) => c.html(meetupPage()));
}
