import { describe, expect, it } from 'vitest';
import { countryCode, venueZone } from './venue-zone';

describe('venueZone: a venue’s zone from its place as written, offline', () => {
  it('reads a US address line with a state code and postal code', () => {
    expect(venueZone({ address: '1000 Broadway, Denver, CO 80203, USA' })).toBe('America/Denver');
    expect(venueZone({ city: 'Denver', region: 'CO', country: 'US' })).toBe('America/Denver');
  });

  it('tells same-named cities apart by their state, and refuses to guess without one', () => {
    expect(venueZone({ city: 'Portland', region: 'Oregon', country: 'US' })).toBe('America/Los_Angeles');
    expect(venueZone({ city: 'Portland', region: 'ME', country: 'US' })).toBe('America/New_York');
    expect(venueZone({ city: 'Springfield', country: 'United States' })).toBeNull();
  });

  it("reads Canada's and Australia's region codes: London, ON is in Ontario; WA stays Washington", () => {
    expect(venueZone({ address: '99 Dundas St, London, ON N6A 6K1' })).toBe('America/Toronto');
    expect(venueZone({ city: 'Riverview', region: 'NB' })).toBe('America/Moncton');
    expect(venueZone({ city: 'Smalltown', region: 'QLD', country: 'Australia' })).toBe('Australia/Brisbane');
    expect(venueZone({ address: 'Springfield, WA 99999' })).toBe('America/Los_Angeles');
    expect(venueZone({ city: 'Smalltown', region: 'WA', country: 'AU' })).toBe('Australia/Perth');
  });

  it('takes a city that dwarfs its namesakes in other zones (Paris, France over Paris, Texas)', () => {
    expect(venueZone({ city: 'Paris' })).toBe('Europe/Paris');
  });

  it('takes a one-clock country’s zone when the city is not in the table', () => {
    expect(venueZone({ city: 'Kleinkleckersdorf', country: 'Germany' })).toBe('Europe/Berlin');
    expect(venueZone({ country: 'NL' })).toBe('Europe/Amsterdam');
    expect(venueZone({ address: 'Some Hall, 75001, France' })).toBe('Europe/Paris');
    // Several clocks and no city: unknown.
    expect(venueZone({ country: 'USA' })).toBeNull();
    expect(venueZone({ address: 'Online' })).toBeNull();
  });

  it('reads the place after "in" in a venue line, and the short names SF and NYC', () => {
    // apache/any23's h-event test page: <span class="p-location">Some bar in SF</span>.
    expect(venueZone({ address: 'Some bar in SF' })).toBe('America/Los_Angeles');
    expect(venueZone({ address: 'Rooftop party in Lisbon' })).toBe('Europe/Lisbon');
    expect(venueZone({ address: 'Drinks in NYC' })).toBe('America/New_York');
    expect(venueZone({ address: 'Some bar' })).toBeNull();
  });

  it('reads country names and codes', () => {
    expect(countryCode('Deutschland')).toBe('DE');
    expect(countryCode('GBR')).toBe('GB');
    expect(countryCode('United States of America')).toBe('US');
    expect(countryCode('Atlantis')).toBeNull();
  });

  it('reads a US ZIP Code after its state, or in a US address, by the ZIP table (El Paso keeps Mountain time)', () => {
    // Civic meeting pages: Wichita City Council, a Chicago board, El Paso County.
    expect(venueZone({ address: 'City Hall, 455 N Main, Wichita, KS 67202' })).toBe('America/Chicago');
    expect(venueZone({ address: '121 N LaSalle St, Chicago, IL 60602' })).toBe('America/Chicago');
    expect(venueZone({ address: '500 E San Antonio Ave, El Paso, TX 79901' })).toBe('America/Denver');
    // JSON-LD's PostalAddress joined in its order: street, postal code, city, region.
    expect(venueZone({ address: '455 N Main, 67202, Wichita, KS' })).toBe('America/Chicago');
    expect(venueZone({ address: 'Council Chambers, 79901', country: 'US' })).toBe('America/Denver');
    // Gary is in Indiana's Central-time corner: the ZIP Code says so, the state's majority would not.
    expect(venueZone({ address: '401 Broadway, Gary, IN 46402' })).toBe('America/Chicago');
    // Five digits in a German address stay a German postal code (10178 is also a Manhattan ZIP Code).
    expect(venueZone({ address: 'Alexanderstraße 11, 10178, Berlin, DE' })).toBe('Europe/Berlin');
    expect(venueZone({ address: '820 N French St, Wilmington, DE 19801' })).toBe('America/New_York');
  });

  it('reads a Canadian postal code as its province', () => {
    // America/Montreal is the tz database's other name for America/Toronto's clock.
    expect(venueZone({ address: '25 Rue Laurier, Gatineau, QC J8X 4C8' })).toBe('America/Montreal');
    expect(venueZone({ address: '110 Laurier Ave W, K1P 1J1' })).toBe('America/Toronto');
    expect(venueZone({ address: '1 Sir Winston Churchill Sq, T5J 2R7' })).toBe('America/Edmonton');
  });

  it('gives a region of several clocks the clock most of its people keep', () => {
    expect(venueZone({ region: 'Indiana', country: 'US' })).toBe('America/Indiana/Indianapolis');
    expect(venueZone({ address: 'Fairgrounds, Kansas' })).toBe('America/Chicago');
    expect(venueZone({ region: 'TX', country: 'US' })).toBe('America/Chicago');
    // Quebec's Magdalen Islands and Lower North Shore keep Atlantic time; Montreal and Quebec City Eastern.
    expect(venueZone({ region: 'Quebec', country: 'Canada' })).toBe('America/Montreal');
    expect(venueZone({ address: 'Ontario, Canada' })).toBe('America/Toronto');
  });
});
