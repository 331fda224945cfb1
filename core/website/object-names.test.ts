import { describe, expect, it } from 'vitest';
import { OBJECT_NAMES_PAGE } from '../../dev/harness/hostile-sites';
import { extractFacts } from './extract';

const page = { url: 'https://names.example/', contentType: 'text/html', body: OBJECT_NAMES_PAGE };

// A page's names that Object.prototype also has (constructor, __proto__, toString, …) in every format: the
// readers and the parsers' patches look them up as the page's own or not at all.
describe('names Object.prototype also has', () => {
  it('cost no format its ordinary event', () => {
    const facts = extractFacts(page);
    expect(facts.events.map((e) => [e.name, e.startAt])).toEqual([
      ['JSON-LD show', '2026-06-01T19:00'],
      ['Microdata show', '2026-06-02T19:00'],
      ['RDFa show', '2026-06-03T19:00'],
      ['Microformats show', '2026-06-04T19:00'],
      ['hCalendar show', '2026-06-05T19:00'],
    ]);
    expect(facts.unreadableEvents).toBeUndefined();
  });

  it('are read as words the vocabulary does not have, never as the prototype’s members', () => {
    const [jsonLd, microdata, rdfa] = extractFacts(page).events;
    // eventStatus "constructor" is no status and repeatFrequency "constructor" no frequency.
    expect(jsonLd).toEqual({ name: 'JSON-LD show', start: '2026-06-01T19:00', startAt: '2026-06-01T19:00' });
    expect(microdata?.status).toBeUndefined();
    // A prefix named __proto__ is a prefix like any other.
    expect(rdfa?.endAt).toBe('2026-06-03T21:00');
  });
});
