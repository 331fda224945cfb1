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
});
