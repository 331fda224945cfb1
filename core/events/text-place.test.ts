import { describe, expect, it } from 'vitest';
import { textPlaceZone } from './text-place';

describe('textPlaceZone', () => {
  it('reads the zone of the address lines a page’s text shows', () => {
    // business.rpba.org's meeting page: the street in the markup, the city line only in the text.
    expect(textPlaceZone('Howard Street SSA #19\n8:30 AM - 10:00 AM CST\n1623 W. Howard St.\nChicago, IL 60626')).toBe('America/Chicago');
    expect(textPlaceZone('City Hall, 455 N Main, Wichita, KS 67202')).toBe('America/Chicago');
    expect(textPlaceZone('110 Laurier Ave W, Ottawa, ON K1P 1J1')).toBe('America/Toronto');
  });

  it('names nothing for addresses in different zones, prose, or no address line', () => {
    expect(textPlaceZone('Denver, CO 80203 and Chicago, IL 60602')).toBeNull();
    expect(textPlaceZone('Our members come from Chicago and Denver.')).toBeNull();
    expect(textPlaceZone('Alexanderstraße 11, 10178 Berlin')).toBeNull();
  });
});
