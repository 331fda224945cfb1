import { describe, expect, it } from 'vitest';
import { deliveredEvent } from '../../dev/harness/found-event';
import type { Event } from '../contract/event';
import { parseTimerSettings } from '../contract/timer-settings';
import { addToCalendarUrl } from './calendar';
import { renderDigest } from './email/digest';
import { eventPlace } from '../events/event-place';
import { eventWhen } from './event-text';
import { webhookPayload } from './webhook-payload';

const base: Event = deliveredEvent({
  key: 'k',
  title: 'Night <Meetup> & Talks',
  starts_at: '2026-03-29T01:30:00+01:00',
  timezone: 'Europe/Berlin',
  city: 'Berlin',
  url: 'https://example.org/e?a=1&b=2',
});

describe('event text and calendar links', () => {
  it('writes the date in the timer zone, across a DST change', () => {
    expect(eventWhen(base, 'Europe/Berlin')).toBe('Sun 29 Mar 2026, 01:30 (Europe/Berlin)');
    expect(eventWhen(base, 'America/New_York')).toBe('Sat 28 Mar 2026, 20:30 (America/New York)');
    expect(eventWhen({ ...base, status: 'tentative' }, 'Europe/Berlin')).toBe('Sun 29 Mar 2026, 01:30 (Europe/Berlin), not yet confirmed');
    expect(eventWhen({ ...base, all_day: true, starts_at: '2026-06-01', ends_at: '2026-06-03' }, 'Asia/Tokyo')).toBe(
      'Mon 1 Jun 2026 – Wed 3 Jun 2026',
    );
    expect(eventWhen({ ...base, starts_at: null }, 'UTC')).toBe('Date not known');
    // A zone this runtime does not know writes UTC, and says so, instead of failing the digest.
    expect(eventWhen(base, 'Mars/Olympus_Mons')).toBe('Sun 29 Mar 2026, 00:30 (UTC)');
  });

  it('names the place', () => {
    expect(eventPlace(base)).toBe('Berlin');
    expect(eventPlace({ ...base, venue: 'Hall 1', online: true })).toBe('Hall 1, Berlin · also online');
    expect(eventPlace({ ...base, city: null, online: true })).toBe('Online');
    expect(eventPlace({ ...base, city: null })).toBeNull();
    // A venue that names its city is not followed by it again: the card, the feed and a message read alike.
    expect(eventPlace({ ...base, venue: 'bcc Berlin Congress Center' })).toBe('bcc Berlin Congress Center');
    expect(eventPlace({ ...base, venue: 'bcc Berlin Congress Center', online: true })).toBe('bcc Berlin Congress Center · also online');
  });

  it('links Add to calendar through the events work, never for a cancelled event', () => {
    const link = new URL(addToCalendarUrl(base)!);
    expect(link.searchParams.get('action')).toBe('TEMPLATE');
    expect(link.searchParams.get('dates')).toBe('20260329T003000Z/20260329T013000Z');
    expect(addToCalendarUrl({ ...base, status: 'cancelled' })).toBeNull();
    expect(addToCalendarUrl({ ...base, starts_at: null })).toBeNull();
  });
});

describe('digest and webhook content', () => {
  it('escapes event text in the HTML part and keeps it verbatim in the text part', () => {
    const mail = renderDigest({
      question: 'q',
      timezone: 'Europe/Berlin',
      events: [base, { ...base, key: 'c', title: 'Gone', status: 'cancelled', new: false }],
      runsUrl: 'https://app.example/#timer-1',
      unsubscribeUrl: 'https://app.example/unsubscribe/t',
    });
    expect(mail.subject).toBe('1 new and 1 changed event: q');
    expect(mail.html).toContain('Night &lt;Meetup&gt; &amp; Talks');
    expect(mail.html).not.toContain('<Meetup>');
    expect(mail.html).toContain('href="https://example.org/e?a=1&amp;b=2"');
    expect(mail.text).toContain('[New] Night <Meetup> & Talks');
    expect(mail.text).toContain('[Cancelled] Gone');
    expect(mail.html.startsWith('<!doctype html><html lang="en">')).toBe(true);
    // Back to where the run's answer is shown, in both parts.
    expect(mail.html).toMatch(/<a href="https:\/\/app.example\/#timer-1"[^>]*>Read this run’s answer and all runs of this timer<\/a>/);
    expect(mail.text).toContain("This run's answer and all runs of this timer: https://app.example/#timer-1");
  });

  it('says in the subject what a run found: new, changed, or both', () => {
    const digest = (events: Event[]) =>
      renderDigest({
        question: 'q',
        timezone: 'UTC',
        events,
        runsUrl: 'https://a.example/#timer-1',
        unsubscribeUrl: 'https://a.example/u',
      });
    const moved = { ...base, key: 'm', status: 'moved' as const, new: false };
    expect(digest([base, { ...base, key: 'b' }]).subject).toBe('2 new events: q');
    expect(digest([moved, { ...moved, key: 'n', status: 'cancelled' }]).subject).toBe('2 changed events: q');
    expect(digest([moved]).subject).toBe('1 changed event: q');
    expect(digest([base, moved, { ...moved, key: 'o' }]).subject).toBe('1 new and 2 changed events: q');
  });

  it('says in a digest and a webhook how each event was checked', () => {
    const corrected: Event = {
      ...base,
      key: 'm',
      title: 'ML Meetup',
      starts_at: '2026-03-03T19:00:00+01:00',
      verification: { status: 'corrected', source_url: 'https://www.meetup.example/ml', model_starts_at: '2026-03-04T21:00:00+01:00' },
    };
    const unconfirmed: Event = {
      ...base,
      key: 'u',
      title: 'Film Night',
      verification: { status: 'unconfirmed', source_url: null, model_starts_at: null },
    };
    const mail = renderDigest({
      question: 'q',
      timezone: 'Europe/Berlin',
      events: [corrected, unconfirmed],
      runsUrl: 'https://app.example/#timer-1',
      unsubscribeUrl: 'https://app.example/unsubscribe/t',
    });
    expect(mail.text).toContain('  Corrected from meetup.example (the answer said Wed 4 Mar 2026, 21:00)');
    expect(mail.text).toContain('  Not confirmed');
    expect(mail.html).toContain('Corrected from meetup.example (the answer said Wed 4 Mar 2026, 21:00)');
    const body = webhookPayload({
      kind: 'digest',
      timer: { id: 4, question: 'Berlin AI', website: '', timezone: 'Europe/Berlin' },
      run: { id: 9, scheduledFor: new Date('2026-03-01T08:00:00Z'), status: 'succeeded', error: null },
      events: [corrected, unconfirmed],
      runsUrl: 'https://app.example/#timer-4',
    });
    expect(body.text).toContain('(Corrected from meetup.example (the answer said Wed 4 Mar 2026, 21:00))');
    expect(body.text).toContain('(Not confirmed)');
    expect(body.events[0]!.verification).toEqual(corrected.verification);
  });

  it('says in a digest and a webhook why an event is not confirmed', () => {
    const refused: Event = {
      ...base,
      key: 'r',
      title: 'Film Night',
      verification: { status: 'unconfirmed', source_url: null, model_starts_at: null, landing_url: null, reason: 'robots' },
    };
    const mail = renderDigest({
      question: 'q',
      timezone: 'Europe/Berlin',
      events: [refused],
      runsUrl: 'https://app.example/#timer-1',
      unsubscribeUrl: 'https://app.example/unsubscribe/t',
    });
    expect(mail.text).toContain('  Not confirmed: robots.txt refused');
    expect(mail.html).toContain('Not confirmed: robots.txt refused');
    const body = webhookPayload({
      kind: 'digest',
      timer: { id: 4, question: 'Berlin AI', website: '', timezone: 'Europe/Berlin' },
      run: { id: 9, scheduledFor: new Date('2026-03-01T08:00:00Z'), status: 'succeeded', error: null },
      events: [refused],
      runsUrl: 'https://app.example/#timer-4',
    });
    expect(body.text).toContain('(Not confirmed: robots.txt refused)');
  });

  it("says a moved event's old and new date in the digest, its text part and the webhook", () => {
    const moved: Event = {
      ...base,
      key: 'mv',
      title: 'ML Meetup',
      starts_at: '2026-03-10T19:00:00+01:00',
      moved_from: '2026-03-03T19:00:00+01:00',
      status: 'moved',
      new: false,
    };
    expect(eventWhen(moved, 'Europe/Berlin')).toBe('Tue 3 Mar 2026, 19:00 → Tue 10 Mar 2026, 19:00 (Europe/Berlin)');
    // Moved before the old start was kept: the new date alone, as before.
    expect(eventWhen({ ...moved, moved_from: undefined }, 'Europe/Berlin')).toBe('Tue 10 Mar 2026, 19:00 (Europe/Berlin)');
    const mail = renderDigest({
      question: 'q',
      timezone: 'Europe/Berlin',
      events: [moved],
      runsUrl: 'https://app.example/#timer-1',
      unsubscribeUrl: 'https://app.example/unsubscribe/t',
    });
    expect(mail.text).toContain('[Moved] ML Meetup\n  Tue 3 Mar 2026, 19:00 → Tue 10 Mar 2026, 19:00');
    expect(mail.html).toContain('Tue 3 Mar 2026, 19:00 → Tue 10 Mar 2026, 19:00');
    const body = webhookPayload({
      kind: 'digest',
      timer: { id: 4, question: 'Berlin AI', website: '', timezone: 'Europe/Berlin' },
      run: { id: 9, scheduledFor: new Date('2026-03-01T08:00:00Z'), status: 'succeeded', error: null },
      events: [moved],
      runsUrl: 'https://app.example/#timer-4',
    });
    expect(body.text).toContain('• [Moved] ML Meetup — Tue 3 Mar 2026, 19:00 → Tue 10 Mar 2026, 19:00 (Europe/Berlin)');
    expect(body.events[0]).toMatchObject({ starts_at: '2026-03-10T19:00:00+01:00', moved_from: '2026-03-03T19:00:00+01:00' });
  });

  it('summarises a digest for chat services in `text` and `content`', () => {
    const events = Array.from({ length: 7 }, (_, i) => ({ ...base, key: `k${i}`, title: `Event ${i}` }));
    const body = webhookPayload({
      kind: 'digest',
      timer: { id: 4, question: 'Berlin AI', website: '', timezone: 'Europe/Berlin' },
      run: { id: 9, scheduledFor: new Date('2026-03-01T08:00:00Z'), status: 'succeeded', error: null },
      events,
      runsUrl: 'https://app.example/#timer-4',
    });
    expect(body.text.split('\n')[0]).toBe('Event Finder: 7 new events for "Berlin AI"');
    expect(body.text).toContain('…and 2 more');
    expect(body.text).toContain('https://example.org/e?a=1&amp;b=2');
    expect(body.content).toBe(body.text.replaceAll('&amp;', '&'));
    expect(body.run).toEqual({ id: 9, scheduled_for: '2026-03-01T08:00:00.000Z', status: 'succeeded', error: null, new_count: 7 });
    expect(body.events).toHaveLength(7);
  });

  it('carries no chat markup from a website: Slack text escaped, Discord pings nobody', () => {
    const titles = ['@everyone free tickets', '<!channel> sale ends today', '<https://phish.example|Official tickets>', 'Rock & Roll'];
    const body = webhookPayload({
      kind: 'digest',
      timer: { id: 4, question: 'Gigs', website: '', timezone: 'Europe/Berlin' },
      run: { id: 9, scheduledFor: new Date('2026-03-01T08:00:00Z'), status: 'succeeded', error: null },
      events: titles.map((title, i) => ({ ...base, key: `k${i}`, title, url: null })),
      runsUrl: 'https://app.example/#timer-4',
    });
    const lines = body.text.split('\n');
    expect(lines[1]).toBe('• [New] @everyone free tickets — Sun 29 Mar 2026, 01:30 (Europe/Berlin)');
    expect(lines[2]).toBe('• [New] &lt;!channel&gt; sale ends today — Sun 29 Mar 2026, 01:30 (Europe/Berlin)');
    expect(lines[3]).toBe('• [New] &lt;https://phish.example|Official tickets&gt; — Sun 29 Mar 2026, 01:30 (Europe/Berlin)');
    expect(lines[4]).toBe('• [New] Rock &amp; Roll — Sun 29 Mar 2026, 01:30 (Europe/Berlin)');
    expect(body.text).not.toMatch(/<|>/);
    // Discord shows `content` as written but pings no @everyone, @here, user or role.
    expect(body.content).toContain('• [New] @everyone free tickets');
    expect(body.allowed_mentions).toEqual({ parse: [] });
    // The data itself stays as the website wrote it.
    expect(body.events.map((e) => e.title)).toEqual(titles);
  });
});

describe('PATCH /api/timers/:id body', () => {
  it('accepts any of paused, email, webhook_url and says what is wrong otherwise', () => {
    expect(parseTimerSettings({ paused: true, webhook_url: null })).toEqual({ ok: true, value: { paused: true, webhook_url: null } });
    expect(parseTimerSettings([])).toMatchObject({ ok: false });
    expect(parseTimerSettings({ webhook_url: 5 })).toEqual({
      ok: false,
      message: expect.stringContaining('webhook_url must be a web address'),
    });
  });
});

describe('a series in a digest and a webhook', () => {
  // Every second Tuesday at 19:00 in Berlin, years ahead so that none is over whenever the test runs.
  const occurrence = (day: string): Event =>
    deliveredEvent({
      key: `series:uid:ml@meetups.example@${day}T19:00:00`,
      title: 'Berlin Machine Learning Meetup',
      starts_at: `${day}T19:00:00+02:00`,
      timezone: 'Europe/Berlin',
      city: 'Berlin',
      repeats: 'every second Tuesday',
      rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU',
    });
  const events = [occurrence('2030-06-04'), occurrence('2030-06-18'), occurrence('2030-07-02')];

  it('is one item that says how it repeats; the webhook keeps each occurrence in its data', () => {
    const mail = renderDigest({
      question: 'ML meetups',
      timezone: 'Europe/Berlin',
      events,
      runsUrl: 'https://app.example/#timer-1',
      unsubscribeUrl: 'https://app.example/unsubscribe/t',
    });
    // renderDigest lists what it is given; the message builder gives it one item per series.
    expect(mail.text).toContain('  Repeats every second Tuesday');
    const body = webhookPayload({
      kind: 'digest',
      timer: { id: 4, question: 'ML meetups', website: '', timezone: 'Europe/Berlin' },
      run: { id: 9, scheduledFor: new Date('2030-06-01T08:00:00Z'), status: 'succeeded', error: null },
      events,
      runsUrl: 'https://app.example/#timer-4',
    });
    expect(body.text.split('\n')).toEqual([
      'Event Finder: 1 new event for "ML meetups"',
      '• [New] Berlin Machine Learning Meetup — Tue 4 Jun 2030, 19:00 (Europe/Berlin), repeats every second Tuesday',
      'All runs: https://app.example/#timer-4',
    ]);
    expect(body.events).toHaveLength(3);
  });
});
