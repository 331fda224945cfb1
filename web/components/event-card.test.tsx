import ICAL from 'ical.js';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../core/contract/event';
import { friendlyDate, isPast, shortDate } from './event-date';

import { EventList } from './event-list';

const base: Event = {
  key: 'url:https://ai-events.example/events/applied-ml-summit',
  title: 'Applied ML Summit Berlin 2026',
  starts_at: '2027-06-18T09:00:00+02:00',
  ends_at: '2027-06-19T18:00:00+02:00',
  all_day: false,
  timezone: null,
  timezone_source: null,
  venue: 'bcc Berlin Congress Center',
  city: 'Berlin',
  online: false,
  url: 'https://ai-events.example/events/applied-ml-summit',
  source_url: 'https://ai-events.example/berlin',
  status: 'scheduled',
  verification: null,
  new: true,
};

describe('event cards', () => {
  it("show the date in the user's zone in the one style, the clock as their locale reads it, all-day dates as dates", () => {
    // Two days: a range, both ends in the same style (docs/decisions/time.md).
    expect(friendlyDate(base, 'Europe/Berlin', 'en-GB')).toBe('Fri 18 Jun 2027, 09:00 – Sat 19 Jun 2027, 18:00');
    expect(friendlyDate(base, 'America/New_York', 'en-GB')).toBe('Fri 18 Jun 2027, 03:00 – Sat 19 Jun 2027, 12:00');
    expect(friendlyDate(base, 'America/New_York', 'en-US')).toBe('Fri 18 Jun 2027, 3:00 AM – Sat 19 Jun 2027, 12:00 PM');
    expect(shortDate(base, 'Europe/Berlin', 'en-GB')).toBe('18 Jun, 09:00 – 19 Jun, 18:00');
    // A UTC time (the model's extraction writes one, timezone_source 'offset') reads in the viewer's zone.
    const utc = { ...base, starts_at: '2026-06-18T18:00:00Z', ends_at: null, timezone: null, timezone_source: 'offset' as const };
    expect(friendlyDate(utc, 'Europe/Berlin', 'en-GB')).toBe('Thu 18 Jun 2026, 20:00');
    expect(friendlyDate(utc, 'Europe/Berlin', 'de-DE')).toBe('Thu 18 Jun 2026, 20:00');
    expect(shortDate(utc, 'Europe/Berlin', 'en-GB')).toBe('18 Jun, 20:00');
    expect(friendlyDate({ starts_at: '2026-07-01', ends_at: '2026-07-02', all_day: true }, 'Pacific/Auckland', 'en-GB')).toBe(
      'Wed 1 Jul 2026 – Thu 2 Jul 2026',
    );
    expect(friendlyDate({ starts_at: null, ends_at: null, all_day: false }, 'UTC')).toBe('Date not known');
  });

  it('show an event that is over as past, never as New', () => {
    const html = renderToStaticMarkup(
      <EventList title="x" timeZone="UTC" events={[{ ...base, starts_at: '2020-06-18T09:00:00Z', ends_at: '2020-06-18T18:00:00Z' }]} />,
    );
    expect(html).toContain('>Past<');
    expect(html).not.toContain('>New<');
    expect(html).toContain('data-past="true"');
    expect(isPast({ starts_at: '2020-01-01', ends_at: null, all_day: true }, Date.now())).toBe(true);
    expect(isPast({ starts_at: '2999-01-01', ends_at: null, all_day: true }, Date.now())).toBe(false);
  });

  it('render title link, place or Online, badges, and both Add to calendar links', () => {
    const html = renderToStaticMarkup(
      <EventList
        title="Events in this answer"
        timeZone="Europe/Berlin"
        events={[
          base,
          { ...base, key: 'k2', title: 'Online workshop', venue: null, city: null, online: true, url: null, new: false },
          { ...base, key: 'k3', title: 'Moved one', status: 'moved', new: false },
          { ...base, key: 'k4', title: 'Cancelled one', status: 'cancelled', new: false },
        ]}
      />,
    );
    expect(html).toContain('aria-label="Events in this answer"');
    expect(html).toContain('(4, 1 new)');
    expect(html).toContain(
      '<a href="https://ai-events.example/events/applied-ml-summit" target="_blank" rel="noopener noreferrer">Applied ML Summit Berlin 2026</a>',
    );
    expect(html).toContain('>New<');
    expect(html).toContain('bcc Berlin Congress Center');
    expect(html).toContain('>Online<');
    expect(html).toContain('Changed: new date');
    // The moved one shows its old date struck through before its new one.
    const moved = renderToStaticMarkup(
      <EventList
        title="x"
        timeZone="Europe/Berlin"
        events={[{ ...base, key: 'k5', title: 'Moved', status: 'moved', new: false, moved_from: '2027-06-11T09:00:00+02:00' }]}
      />,
    );
    const repeating = renderToStaticMarkup(
      <EventList title="x" timeZone="Europe/Berlin" events={[{ ...base, key: 'k6', repeats: 'every second Tuesday' }]} />,
    );
    expect(repeating).toContain('<p class="event-card__repeats">Repeats every second Tuesday</p>');
    // A series its source gives as one rule: its occurrences are one card, its .ics the rule on the event's clock.
    const occurrence = (day: string): Event => ({
      ...base,
      key: `series:uid:ml@meetups.example@${day}T19:00:00`,
      title: 'Berlin Machine Learning Meetup',
      starts_at: `${day}T19:00:00+02:00`,
      ends_at: `${day}T21:00:00+02:00`,
      timezone: 'Europe/Berlin',
      repeats: 'every second Tuesday',
      rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU',
    });
    const series = renderToStaticMarkup(
      <EventList
        title="Events"
        timeZone="Europe/Berlin"
        events={[occurrence('2027-06-08'), occurrence('2027-06-22'), occurrence('2027-07-06')]}
      />,
    );
    expect(series.match(/<li>/g)).toHaveLength(1);
    expect(series).toContain('Events <span class="event-list__count">(1)</span>');
    expect(series).toContain('Repeats every second Tuesday');
    const seriesIcs = decodeURIComponent(/href="data:text\/calendar;charset=utf-8,([^"]+)"/.exec(series)![1]!);
    expect(seriesIcs).toContain('DTSTART;TZID=Europe/Berlin:20270608T190000');
    expect(seriesIcs).toContain('RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU');
    // The clock as the runtime's locale reads it: 24 h or 12 h.
    expect(moved.replace(/<[^>]+>/g, '')).toMatch(
      /Moved from Fri 11 Jun 2027, (?:09:00|9:00 AM) → {2}to Fri 18 Jun 2027, (?:09:00|9:00 AM)/,
    );
    expect(html).toContain('Changed: cancelled');
    expect(html).toContain('https://calendar.google.com/calendar/render?action=TEMPLATE');
    // A cancelled event offers no Add to calendar.
    expect(html.match(/Google Calendar/g)).toHaveLength(3);
    const ics = decodeURIComponent(/href="data:text\/calendar;charset=utf-8,([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&'));
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!);
    expect(event.startDate.toJSDate().toISOString()).toBe('2027-06-18T07:00:00.000Z');
    expect(html).toContain('download="Applied-ML-Summit-Berlin-2026.ics"');
  });

  it('render nothing for no events', () => {
    expect(renderToStaticMarkup(<EventList title="x" timeZone="UTC" events={[]} />)).toBe('');
  });

  it('say when an event is tentative, and its .ics says TENTATIVE', () => {
    const html = renderToStaticMarkup(<EventList title="x" timeZone="UTC" events={[{ ...base, status: 'tentative' }]} />);
    expect(html).toContain('not yet confirmed');
    const ics = decodeURIComponent(/href="data:text\/calendar;charset=utf-8,([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&'));
    expect(ics).toContain('STATUS:TENTATIVE');
  });

  it('never make a link of a stored javascript: or data: URL', () => {
    const html = renderToStaticMarkup(
      <EventList
        title="x"
        timeZone="UTC"
        events={[
          { ...base, key: 'a', url: 'javascript:alert(1)' },
          { ...base, key: 'b', title: 'Other', url: 'data:text/html,hi' },
        ]}
      />,
    );
    expect(html).not.toMatch(/javascript:|data:text\/html/);
    expect(html).toContain('>Applied ML Summit Berlin 2026</h4>');
  });

  it('say how each event was checked: on which site, corrected from what the answer said, or not confirmed', () => {
    const html = renderToStaticMarkup(
      <EventList
        title="x"
        timeZone="Europe/Berlin"
        events={[
          { ...base, verification: { status: 'confirmed', source_url: 'https://www.ai-events.example/summit', model_starts_at: null } },
          {
            ...base,
            key: 'k2',
            verification: { status: 'corrected', source_url: 'https://meetup.example/ml', model_starts_at: '2027-06-19T11:00:00+02:00' },
          },
          { ...base, key: 'k3', verification: { status: 'unconfirmed', source_url: null, model_starts_at: null } },
          { ...base, key: 'k4', verification: { status: 'source', source_url: 'https://ai-events.example/berlin', model_starts_at: null } },
        ]}
      />,
    );
    expect(html).toContain(
      'Checked on <a href="https://www.ai-events.example/summit" target="_blank" rel="noopener noreferrer">ai-events.example</a>',
    );
    // The clock as the runtime's locale reads it (Node's default, en-US, here).
    expect(html).toContain(
      `Corrected from <a href="https://meetup.example/ml" target="_blank" rel="noopener noreferrer">meetup.example</a> (the answer said Sat 19 Jun 2027, 11:00 AM)`,
    );
    expect(html).toContain('>Not confirmed<');
    // A page's own event needs no line: it is what the page says.
    expect(html.match(/event-card__check /g)).toHaveLength(3);
  });

  it('say why an event is not confirmed, and the site a cited link led to', () => {
    const html = renderToStaticMarkup(
      <EventList
        title="x"
        timeZone="Europe/Berlin"
        events={[
          {
            ...base,
            verification: {
              status: 'confirmed',
              source_url: 'https://cited.example/e/1',
              landing_url: 'https://other.example/page',
              model_starts_at: null,
              reason: null,
            },
          },
          {
            ...base,
            key: 'k2',
            verification: { status: 'unconfirmed', source_url: null, model_starts_at: null, landing_url: null, reason: 'not_listed' },
          },
        ]}
      />,
    );
    expect(html).toContain(
      'Checked on <a href="https://cited.example/e/1" target="_blank" rel="noopener noreferrer">cited.example</a> (its link leads to other.example)',
    );
    expect(html).toContain('>Not confirmed: the page does not list it<');
  });
});
