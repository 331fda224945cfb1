import { readFileSync } from 'node:fs';
import { manyEventsIcs } from './many-events';
import { Hono, type Context } from 'hono';
import { stream } from 'hono/streaming';
import { changingSitePage } from './changing-site';
import { regionSitePage } from './region-site';
import { repeatInWordsPage } from './repeat-in-words';
import { upcomingBerlinAiPage, upcomingMeetupsIcs } from './upcoming-samples';

// Sample event websites for `make dev` and the tests (dev/run.ts lets the server read the stand-in host).
const file = (name: string) => readFileSync(new URL(`./sites/${name}`, import.meta.url), 'utf8');

export const sitesApp = new Hono();

/**
 * The samples worth pasting into 'Website URL', each with upcoming events on the day it is read (the others exist
 * to test the website guard; /sites/berlin-ai.html and /sites/meetups.ics keep their fixed 2026 dates for the tests).
 */
const SAMPLES: { path: string; what: string }[] = [
  { path: 'upcoming/berlin-ai.html', what: 'an events page with schema.org Event data (three Berlin AI events, dated from today)' },
  { path: 'upcoming/meetups.ics', what: 'an iCalendar feed (three meetups, dated from today)' },
  { path: 'around-berlin.html', what: 'events in Potsdam, Munich, online and Berlin, to try a timer’s place and attendance filters' },
  { path: 'plain.html', what: 'a page with no events on it' },
  {
    path: 'rust-meetup.html',
    what: 'a meetup whose page says only in words that it repeats (“then every second Tuesday”): one card that repeats, with its RRULE in the .ics',
  },
  { path: 'many/60.ics', what: 'an iCalendar feed of 60 events (any number up to 200), to see chat channels cut their messages' },
  {
    path: 'changing/demo.html',
    what:
      'a page that changes on each read (any name instead of demo has its own counter): 3 events, then one added, then one ' +
      'moved and one cancelled; a timer on it shows "new" and "changed" runs (?stage=1..3 shows a stage without counting)',
  },
];

/**
 * An index, so the address `make dev` prints leads somewhere; mounted at /sites and /sites/. It lists the
 * addresses to paste, which the server fetches: under `serverOrigin` when the server reaches the stand-ins at
 * another address than the browser does (in containers, http://standins:8090), else as the browser asked.
 */
export const sitesIndexFor = (serverOrigin?: string) => (c: Context) => {
  const origin = serverOrigin ?? new URL(c.req.url).origin;
  return c.html(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sample event websites</title></head><body><main>' +
      '<h1>Sample event websites</h1><p>Local stand-in pages for <code>make dev</code>: paste an address into ' +
      "Event Finder's Website URL field.</p><ul>" +
      SAMPLES.map((s) => `<li><a href="/sites/${s.path}">${origin}/sites/${s.path}</a>: ${s.what}</li>`).join('') +
      '</ul></main></body></html>',
  );
};
export const sitesIndex = sitesIndexFor();
sitesApp.get('/', sitesIndex);

sitesApp.get('/changing/:file{[A-Za-z0-9_-]+\\.html}', (c) => {
  const stage = Number(c.req.query('stage'));
  return c.html(changingSitePage(c.req.param('file').replace(/\.html$/, ''), stage >= 1 && stage <= 3 ? stage : null));
});
sitesApp.get('/around-berlin.html', (c) => c.html(regionSitePage()));
sitesApp.get('/rust-meetup.html', (c) => c.html(repeatInWordsPage()));
sitesApp.get('/berlin-ai.html', (c) => c.html(file('berlin-ai.html')));
sitesApp.get('/meetups.ics', (c) => c.body(file('meetups.ics'), 200, { 'content-type': 'text/calendar; charset=utf-8' }));
sitesApp.get('/upcoming/berlin-ai.html', (c) => c.html(upcomingBerlinAiPage()));
sitesApp.get('/upcoming/meetups.ics', (c) => c.body(upcomingMeetupsIcs(), 200, { 'content-type': 'text/calendar; charset=utf-8' }));
sitesApp.get('/many/:file{[0-9]+\\.ics}', (c) =>
  c.body(manyEventsIcs(Number.parseInt(c.req.param('file'), 10)), 200, { 'content-type': 'text/calendar; charset=utf-8' }),
);
sitesApp.get('/plain.html', (c) =>
  c.html('<!doctype html><title>Community calendar</title><main><h1>Community calendar</h1><p>No events are planned yet.</p></main>'),
);
/** A redirect to any address (?to=), to test that each redirect target is checked again. */
sitesApp.get('/redirect', (c) => c.redirect(c.req.query('to') ?? '/sites/berlin-ai.html', 302));
/** A page larger than the 2 MB cap, sent without Content-Length so the cap must be enforced while reading. */
sitesApp.get('/huge.html', (c) => {
  c.header('content-type', 'text/html; charset=utf-8');
  return stream(c, async (s) => {
    const block = `<p>${'event '.repeat(1000)}</p>\n`;
    for (let i = 0; i < 600 && !s.aborted; i++) await s.write(block);
  });
});
/** A page that starts and then stalls (?ms=, default 15 s), to test the time limit. */
sitesApp.get('/slow.html', (c) => {
  c.header('content-type', 'text/html; charset=utf-8');
  const ms = Number(c.req.query('ms') ?? 15_000);
  return stream(c, async (s) => {
    await s.write('<html><body><p>Loading');
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      s.onAbort(() => {
        clearTimeout(t);
        resolve();
      });
    });
    await s.write('</p></body></html>');
  });
});
sitesApp.get('/logo.png', (c) => c.body(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 200, { 'content-type': 'image/png' }));
