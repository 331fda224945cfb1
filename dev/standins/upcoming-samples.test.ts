import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractFacts } from '../../core/website/extract';
import { createGeminiStandin } from './gemini';
import { samplesShiftDays, upcomingBerlinAiPage, upcomingMeetupsIcs } from './upcoming-samples';

const fixed = (name: string) => readFileSync(new URL(`./sites/${name}`, import.meta.url), 'utf8');

describe('sample sites dated from the day they are read', () => {
  const { app } = createGeminiStandin();
  const origin = 'http://127.0.0.1:8090';

  it('shows upcoming events on every sample site the index lists, and on the grounded answer’s pages', async () => {
    const index = await (await app.request(`${origin}/sites/`)).text();
    const listed = [...index.matchAll(/href="(\/sites\/[^"]+)"/g)].map((m) => m[1]!);
    expect(listed).toContain('/sites/upcoming/berlin-ai.html');
    expect(listed).toContain('/sites/upcoming/meetups.ics');
    // The page with no events is a sample of exactly that, the meetup in words one whose event is in its text only
    // (repeat-in-words.test.ts); the grounded pages are where the answer's links lead.
    const withEvents = [
      ...listed.filter((path) => path !== '/sites/plain.html' && path !== '/sites/rust-meetup.html'),
      '/sites/grounded/ai-summit-berlin.html',
      '/sites/grounded/berlin-ml-meetup.html',
    ];
    expect(withEvents.length).toBeGreaterThanOrEqual(6);
    // A later day than the test's own today (UTC) is upcoming whatever the time of day and the zone.
    const today = new Date().toISOString().slice(0, 10);
    for (const path of withEvents) {
      const res = await app.request(`${origin}${path.replace('/sites/changing/demo.html', '/sites/changing/sample-test.html')}`);
      expect(res.status, path).toBe(200);
      const facts = extractFacts({ url: `${origin}${path}`, contentType: res.headers.get('content-type') ?? '', body: await res.text() });
      const upcoming = facts.events.filter((e) => (e.startAt ?? '').slice(0, 10) > today);
      expect(upcoming.length, `upcoming events on ${path}`).toBeGreaterThan(0);
    }
  });

  it('moves every date by whole weeks so the first event is 7 to 13 days ahead', () => {
    // 27 Nov 2026 + 7 days = 4 Dec; from 28 May that is 190 days, so 28 weeks (196 days): 28 May → 10 Dec.
    expect(samplesShiftDays(Date.parse('2026-11-27T12:00:00Z'))).toBe(196);
    // On 21 May 2026 the fixed dates are already a week ahead: nothing moves.
    expect(samplesShiftDays(Date.parse('2026-05-21T08:00:00Z'))).toBe(0);
    expect(upcomingBerlinAiPage(Date.parse('2026-05-21T08:00:00Z'))).toBe(fixed('berlin-ai.html'));
    expect(upcomingMeetupsIcs(Date.parse('2026-05-21T08:00:00Z'))).toBe(fixed('meetups.ics'));
    // Earlier than that they move back: 1 May + 7 = 8 May, 20 days before 28 May, so 2 weeks back (14 May).
    expect(samplesShiftDays(Date.parse('2026-05-01T00:00:00Z'))).toBe(-14);
  });

  it('keeps Berlin’s local times in winter and writes a range across the new year', () => {
    const page = upcomingBerlinAiPage(Date.parse('2026-11-27T12:00:00Z'));
    // The summit, 18–19 June + 196 days: 31 December and 1 January, 09:00 and 18:00 in Berlin (CET, +01:00).
    expect(page).toContain('"startDate": "2026-12-31T09:00:00+01:00"');
    expect(page).toContain('"endDate": "2027-01-01T18:00:00+01:00"');
    expect(page).toContain('<time datetime="2026-12-31">31 December 2026 &ndash; 1 January 2027</time>');
    // The meetup, written without an offset: 28 May → 10 December, 19:00.
    expect(page).toContain('"startDate": "2026-12-10T19:00"');
    expect(page).toContain('<time datetime="2026-12-10T19:00">10 December 2026, 19:00</time>');
    // The online workshop, 19:00–21:00 in Berlin written in UTC: 3 June → 16 December, 18:00Z (17:00Z in summer).
    expect(page).toContain('"startDate": "2026-12-16T18:00:00Z"');
    expect(page).toContain('"endDate": "2026-12-16T20:00:00Z"');
    expect(page).toContain('16 December 2026, 19:00 CET');

    const ics = upcomingMeetupsIcs(Date.parse('2026-11-27T12:00:00Z'));
    expect(ics).toContain('DTSTART;TZID=Europe/Berlin:20261222T183000'); // 9 June → 22 December
    expect(ics).toContain('DTEND;TZID=Europe/Berlin:20261222T210000');
    expect(ics).toContain('DTSTART:20261229T180000Z'); // 16 June → 29 December, 19:00 CET
    expect(ics).toContain('DTEND:20261229T200000Z');
    expect(ics).toContain('DTSTART;VALUE=DATE:20270113'); // 1–3 July → 13–15 January 2027
    expect(ics).toContain('DTEND;VALUE=DATE:20270115');
  });
});
