import { describe, expect, it } from 'vitest';
import { eventSchema } from './event';

describe('the contract Event', () => {
  // As db/migrations/004-events.sql's jsonb columns hold events stored before timezone_source and tentative.
  const stored = {
    key: 'url:https://ai-events.example/events/applied-ml-summit',
    title: 'Applied ML Summit Berlin 2026',
    starts_at: '2026-06-18T09:00:00+02:00',
    ends_at: null,
    all_day: false,
    timezone: null,
    venue: null,
    city: 'Berlin',
    online: false,
    url: 'https://ai-events.example/events/applied-ml-summit',
    source_url: 'https://ai-events.example/berlin',
    status: 'scheduled',
    new: true,
  };

  it('reads an event stored before timezone_source as null', () => {
    expect(eventSchema.parse(stored).timezone_source).toBeNull();
  });

  it('takes tentative and the zone rules, and refuses other values', () => {
    expect(eventSchema.parse({ ...stored, status: 'tentative', timezone_source: 'venue' })).toMatchObject({
      status: 'tentative',
      timezone_source: 'venue',
    });
    expect(eventSchema.safeParse({ ...stored, timezone_source: 'guess' }).success).toBe(false);
  });
});
