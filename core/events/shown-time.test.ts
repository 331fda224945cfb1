import { describe, expect, it } from 'vitest';
import { textShowsTime } from './shown-time';

// The Events Calendar's list view as its readable text: title, then "date @ time - time".
const tribeList = `Upcoming Events
City Council Regular Meeting
July 12 @ 9:00 am - 11:00 am
Coleman A. Young Municipal Center, 2 Woodward Ave, Detroit, MI
Planning Commission
July 14 @ 6:30 pm - 8:00 pm`;

describe('textShowsTime', () => {
  it('finds a wall time written the ways pages write it, beside the event’s title', () => {
    expect(textShowsTime(tribeList, 'City Council Regular Meeting', { h: 9, mi: 0 })).toBe(true);
    expect(textShowsTime(tribeList, 'Planning Commission', { h: 18, mi: 30 })).toBe(true);
    expect(textShowsTime('Konzert – 19.07.2026, 20 Uhr', 'Konzert', { h: 20, mi: 0 })).toBe(true);
    expect(textShowsTime('Board Meeting 7/12/2026 09:00', 'Board meeting', { h: 9, mi: 0 })).toBe(true);
    expect(textShowsTime('Story time, 10.30 – 11.15', 'Story Time', { h: 10, mi: 30 })).toBe(true);
    expect(textShowsTime('Senior Meals Jul 31, 2018 12:00pm', 'Senior Meals', { h: 12, mi: 0 })).toBe(true);
  });

  it('does not take another time, the other half of the day, or a time far from the title', () => {
    expect(textShowsTime(tribeList, 'City Council Regular Meeting', { h: 13, mi: 0 })).toBe(false);
    // 9:00 pm is 21:00; 19:00 holds "9:00" only after a digit.
    expect(textShowsTime('Gala 9:00 pm', 'Gala', { h: 9, mi: 0 })).toBe(false);
    expect(textShowsTime('Gala 19:00', 'Gala', { h: 9, mi: 0 })).toBe(false);
    expect(textShowsTime(`Gala${' filler'.repeat(200)} 9:00 am`, 'Gala', { h: 9, mi: 0 })).toBe(false);
    expect(textShowsTime(tribeList, 'Zoning Appeals', { h: 9, mi: 0 })).toBe(false);
    // A time the page marks as UTC is not the venue's wall time.
    expect(textShowsTime('Open Source AI Meetup: 2026-06-18 19:00 UTC, Factory, Berlin', 'Open Source AI Meetup', { h: 19, mi: 0 })).toBe(
      false,
    );
    expect(textShowsTime('Gala 9:00-11:00', 'Gala', { h: 9, mi: 0 })).toBe(true);
  });
});
