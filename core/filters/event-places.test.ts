import { describe, expect, it } from 'vitest';
import { deliveredEvent } from '../../dev/harness/found-event';
import type { Event } from '../contract/event';
import { mapPoints } from './event-places';

const event = (over: Partial<Event>): Event =>
  deliveredEvent({
    key: over.title ?? 'e',
    title: 'Event',
    starts_at: '2026-12-03T18:30:00+01:00',
    timezone: 'Europe/Berlin',
    online: false,
    ...over,
  });

describe('mapPoints', () => {
  it('places in-person events by city; leaves out online and cancelled ones', () => {
    const points = mapPoints([
      event({ title: 'Potsdam AI Meetup', city: 'Potsdam', venue: 'Rechenzentrum' }),
      event({ title: 'Online LLM Office Hours', online: true }),
      event({ title: 'Cancelled Berlin Night', city: 'Berlin', status: 'cancelled' }),
      event({ title: 'Moved Berlin Night', city: 'Berlin', status: 'moved' }),
    ]);
    expect(points.map((p) => [p.title, p.place])).toEqual([
      ['Potsdam AI Meetup', 'Rechenzentrum, Potsdam'],
      ['Moved Berlin Night', 'Berlin'],
    ]);
  });
});
