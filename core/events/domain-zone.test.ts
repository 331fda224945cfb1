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
});
