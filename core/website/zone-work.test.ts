import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { ZoneWork } from './zone-work';

/** An ical.js zone at a fixed offset (`+0200`), and the text of its rules. */
function fixed(offset: string) {
  const rules = ['BEGIN:STANDARD', 'DTSTART:19700101T000000', `TZOFFSETFROM:${offset}`, `TZOFFSETTO:${offset}`, 'END:STANDARD'];
  const text = ['BEGIN:VCALENDAR', 'BEGIN:VTIMEZONE', 'TZID:Ours', ...rules, 'END:VTIMEZONE', 'END:VCALENDAR'].join('\r\n');
  const vtimezone = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vtimezone')!;
  return { tz: new ICAL.Timezone(vtimezone), rules: rules.join('\n') };
}

describe('ZoneWork', () => {
  it('does as many pieces of work as its limit allows, then none', () => {
    const work = new ZoneWork(3);
    expect([work.take(), work.take(), work.take(), work.take()]).toEqual([true, true, true, false]);
  });

  it('compares rules with the IANA zones once per text and year, and answers again from that past its limit', () => {
    const work = new ZoneWork(1);
    const plusTwo = fixed('+0200');
    expect(work.zoneOfRules(plusTwo.tz, plusTwo.rules, 2026)).toBe('Africa/Johannesburg');
    // Another TZID with the same rules: the comparison already made.
    const again = fixed('+0200');
    expect(work.zoneOfRules(again.tz, again.rules, 2026)).toBe('Africa/Johannesburg');
    // Other rules, or another year: work the limit no longer allows.
    const plusThree = fixed('+0300');
    expect(work.zoneOfRules(plusThree.tz, plusThree.rules, 2026)).toBeUndefined();
    expect(work.zoneOfRules(plusTwo.tz, plusTwo.rules, 2027)).toBeUndefined();
  });
});
