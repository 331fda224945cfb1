import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Hostile shapes against the check of events (core/verification), as tiny pages served on loopback under
 * two names (cited.test and landing.test, both 127.0.0.1; the caller's resolver maps them): a calendar of one-word
 * titles, a page whose only event is "AI", a hidden h-event on a page that says there are none, and a link that
 * redirects to another site. Used by core/verification/check-events.test.ts and the extraction benchmark.
 */
export const CHECKING_HOSTS = ['cited.test', 'landing.test'] as const;
export type CheckingHost = (typeof CHECKING_HOSTS)[number];

export const checkingPage = (body: string) =>
  `<!doctype html><html lang="en"><head><title>Events</title></head><body>${body}</body></html>`;

export const hEvent = (name: string, start: string, attrs = '') =>
  `<div class="h-event"${attrs}><span class="p-name">${name}</span> <time class="dt-start" datetime="${start}">${start}</time></div>`;

/** Every hour an event titled "Berlin", every half hour one titled "Night" (a hostile calendar). */
export function genericCalendar(): string {
  const rows: string[] = [];
  for (let h = 0; h < 24; h++) {
    const hh = String(h).padStart(2, '0');
    rows.push(hEvent('Berlin', `2027-03-02T${hh}:00:00+01:00`), hEvent('Night', `2027-03-02T${hh}:00:00+01:00`));
    rows.push(hEvent('Night', `2027-03-02T${hh}:30:00+01:00`));
  }
  return checkingPage(rows.join('\n'));
}

/** The hostile pages, by path. */
export const RED_TEAM_PAGES: Record<string, string> = {
  '/generic.html': genericCalendar(),
  '/ai.html': checkingPage(hEvent('AI', '2027-03-02T19:00:00+01:00')),
  '/meetup.html': checkingPage(hEvent('Berlin Machine Learning Meetup', '2027-03-02T19:00:00+01:00')),
  // It says there are no events, and hides an h-event from its readers.
  '/cancelled.html': checkingPage(
    `<h1>CANCELLED. There are no events.</h1>${hEvent('Berlin AI Night', '2027-03-02T19:00:00+01:00', ' style="display:none"')}`,
  ),
};

/**
 * `pages` on loopback (robots.txt disallows /private/, whose pages are the same pages), with `/moved.html` on
 * either name redirecting to landing.test's meetup page and `/grounding-api-redirect/meetup` to cited.test's, as
 * Google's grounding links do. `requested` lists each request as host + path.
 */
export async function startCheckingSite(pages: Record<string, string> = RED_TEAM_PAGES) {
  const requested: string[] = [];
  let port = 0;
  const at = (host: CheckingHost, path: string) => `http://${host}:${port}${path}`;
  const server: Server = createServer((req, res) => {
    const host = (req.headers.host ?? '').split(':')[0];
    const path = req.url ?? '/';
    requested.push(`${host}${path}`);
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
      return;
    }
    if (path === '/moved.html') {
      res.writeHead(302, { location: at('landing.test', '/meetup.html') }).end();
      return;
    }
    if (path === '/grounding-api-redirect/meetup') {
      res.writeHead(302, { location: at('cited.test', '/meetup.html') }).end();
      return;
    }
    const page = pages[path.replace(/^\/private/, '')];
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    at,
    requested,
    /** WEBSITE_FETCH_ALLOW's entries for both names. */
    allow: CHECKING_HOSTS.map((h) => `${h}:${port}`),
    /** The resolver the check is given: both names are this machine. */
    resolve: async () => [{ address: '127.0.0.1', family: 4 as const }],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
