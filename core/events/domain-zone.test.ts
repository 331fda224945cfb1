import { describe, expect, it } from 'vitest';
import { domainZone } from './domain-zone';

describe('domainZone', () => {
  it('names the zone of a one-clock country by its domain', () => {
    expect(domainZone('http://www.wehranlage-horka.de/veranstaltung/887/')).toBe('Europe/Berlin');
    expect(domainZone('https://golfavisen.dk/golfavisen-award-2018/')).toBe('Europe/Copenhagen');
    expect(domainZone('https://www.example.co.uk/events')).toBe('Europe/London');
    expect(domainZone('https://example.jp/')).toBe('Asia/Tokyo');
  });

  it('names none for generic, generic-use and several-clock domains, or no URL', () => {
    expect(domainZone('https://kiow.com/community-calendar/')).toBeNull();
    expect(domainZone('https://rustconf.io/')).toBeNull();
    expect(domainZone('https://example.tv/')).toBeNull();
    expect(domainZone('https://example.us/')).toBeNull();
    expect(domainZone('https://example.ca/')).toBeNull();
    expect(domainZone('https://example.com.br/')).toBeNull();
    expect(domainZone('https://example.com.au/')).toBeNull();
    expect(domainZone('https://192.168.0.1/')).toBeNull();
    expect(domainZone('not a url')).toBeNull();
  });

  it('names a US government host’s state or city (docs/decisions/events-as-data.md)', () => {
    expect(domainZone('https://www.ks.gov/agencies')).toBe('America/Chicago');
    expect(domainZone('https://kdot.ks.gov/events')).toBe('America/Chicago');
    expect(domainZone('https://www.in.gov/calendar')).toBe('America/Indiana/Indianapolis');
    expect(domainZone('https://www.kansas.gov/')).toBe('America/Chicago');
    expect(domainZone('https://www.wichita.gov/Calendar.aspx')).toBe('America/Chicago');
    expect(domainZone('https://www.cityofchicago.gov/city/en/depts/mayor/calendar.html')).toBe('America/Chicago');
    expect(domainZone('https://www.ci.wichita.ks.us/')).toBe('America/Chicago');
    expect(domainZone('https://www.portland.gov/council/agenda')).toBe('America/Los_Angeles');
  });

  it('takes the page’s venues for a city that several states share, and names nothing for federal hosts', () => {
    expect(domainZone('https://www.springfield.gov/')).toBeNull();
    expect(domainZone('https://www.springfield.gov/', ['America/Chicago', 'America/Chicago'])).toBe('America/Chicago');
    expect(domainZone('https://www.springfield.gov/', ['America/Chicago', 'America/New_York'])).toBeNull();
    expect(domainZone('https://www.nasa.gov/events/')).toBeNull();
    expect(domainZone('https://www.va.gov/outreach-and-events/events/')).toBeNull();
    expect(domainZone('https://www.usa.gov/')).toBeNull();
  });
});
