import { describe, expect, it } from 'vitest';
import { textPlaceZone } from './text-place';

describe('textPlaceZone', () => {
  it('reads the zone of the address lines a page’s text shows', () => {
    // business.rpba.org's meeting page: the street in the markup, the city line only in the text.
    expect(textPlaceZone('Howard Street SSA #19\n8:30 AM - 10:00 AM CST\n1623 W. Howard St.\nChicago, IL 60626')).toBe('America/Chicago');
    expect(textPlaceZone('City Hall, 455 N Main, Wichita, KS 67202')).toBe('America/Chicago');
    expect(textPlaceZone('110 Laurier Ave W, Ottawa, ON K1P 1J1')).toBe('America/Toronto');
  });

  it('reads a street address line without a postal code: a house number, a US city and its state', () => {
    // An eventON description on cookcountylandbank.org, and admboard.org's event details.
    const landBank =
      "will convene at the location of 69 W. Washington St., 22nd Floor, Conference Room 'B', Chicago, Illinois, to consider";
    expect(textPlaceZone(landBank)).toBe('America/Chicago');
    expect(textPlaceZone('Summit County Public Health Board Room, 1867 W. Market St., Entrance A, Akron, OH click here for map')).toBe(
      'America/New_York',
    );
    expect(textPlaceZone('69 W .Washington St, 22nd Floor, Suite ‘B’ , Chicago, Illinois To Consider')).toBe('America/Chicago');
  });

  it('reads no street line whose state is not a US state or whose city the table does not know', () => {
    expect(textPlaceZone('2 tickets, Paris, France')).toBeNull();
    expect(textPlaceZone('Top 5 Reasons, Nowhereville, Ohio')).toBeNull();
    expect(textPlaceZone('12 Main St, Springfield, Illinois and 4 Elm St, Denver, Colorado')).toBeNull();
  });

  it('names nothing for addresses in different zones, prose, or no address line', () => {
    expect(textPlaceZone('Denver, CO 80203 and Chicago, IL 60602')).toBeNull();
    expect(textPlaceZone('Our members come from Chicago and Denver.')).toBeNull();
    expect(textPlaceZone('Alexanderstraße 11, 10178 Berlin')).toBeNull();
  });
});
