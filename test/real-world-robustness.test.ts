import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { eventSchema } from '../core/contract/event';
import { eventsFromFacts } from '../core/events/from-facts';
import { extractFacts } from '../core/website/extract';
import { loadCorpus } from '../dev/harness/real-world-corpus';

/**
 * A website is written by others: cut off mid-file, with a tag, a line or a value broken. Each real file of
 * the corpus is damaged in many ways (the same ways each run: a seeded sequence) and read. The reading must
 * never throw, since one bad event would cost the whole search, and every event must still meet the contract.
 */
// A found event is an event before only-new has said whether it is new.
const foundEventSchema = z.omit(eventSchema, { new: true });

describe('reading damaged real-world files', () => {
  const INSERTS = [
    '<',
    '>',
    '"',
    '</div>',
    '<template>',
    '<svg>',
    '\u0000',
    'BEGIN:VEVENT\r\n',
    'END:VEVENT\r\n',
    '<div class="h-event">',
    '<div itemscope>',
    '<p typeof="Event">',
    'RRULE:FREQ=WEEKLY;COUNT=ag\r\n',
    'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30\r\n',
    'DTSTART;TZID=Nowhere/Zone:20260101T100000\r\n',
    '"startDate": "2026-02-31T25:61",',
    '<base href="//[">',
    '<a class="u-url" href="javascript:alert(1)">',
  ];
  const DAMAGES_PER_FILE = 60;

  // Each file its own seeded sequence (from its name), so a file added to the corpus changes no other's damages.
  const seedOf = (name: string) => [...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) & 0x7fffffff, 7);

  for (const file of loadCorpus()) {
    it(`${file.file}: never throws, and every event read is a valid event`, () => {
      let seed = seedOf(file.file);
      const random = () => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed / 0x7fffffff;
      };
      const failures: string[] = [];
      for (let k = 0; k < DAMAGES_PER_FILE; k++) {
        const body = file.body;
        const at = Math.floor(random() * body.length);
        const length = Math.floor(random() * 200);
        const damaged = [
          () => body.slice(0, at),
          () => body.slice(0, at) + body.slice(at + length),
          () => body.slice(0, at) + body.slice(Math.floor(random() * body.length), Math.floor(random() * body.length)) + body.slice(at),
          () => body.slice(0, at) + INSERTS[Math.floor(random() * INSERTS.length)] + body.slice(at),
        ][k % 4]!();
        try {
          const facts = extractFacts({ url: file.page_url, contentType: file.contentType, body: damaged });
          for (const event of eventsFromFacts(facts, { searcherTimezone: 'Europe/Berlin', now: new Date(file.now) })) {
            foundEventSchema.parse(event);
          }
        } catch (err) {
          failures.push(`damage ${k}: ${(err as Error).message.slice(0, 160)}`);
        }
      }
      expect(failures).toEqual([]);
    });
  }
});
