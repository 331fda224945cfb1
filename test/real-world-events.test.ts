import { describe, expect, it } from 'vitest';
import { foundEvent } from '../dev/harness/found-event';
import type { FoundEvent } from '../core/contract/event';
import {
  type ExpectedEvent,
  FORMATS,
  formatProblems,
  formatTable,
  loadCorpus,
  match,
  missedGoals,
  SEARCHERS,
  scoreCorpus,
} from '../dev/harness/real-world-corpus';
import { KNOWN_MISSES } from './support/real-world-known-misses';

/**
 * The reading goal, and a ratchet (test/support/real-world-known-misses.ts): on the real-world files of test/fixtures/real-world/ (schema.org's examples,
 * microformats tests, iCalendar exports from Google, Apple, Outlook/Exchange, Meetup, SabreDAV...), read
 * without Gemini, recall ≥ 95%, precision ≥ 98%, starts right ≥ 99%, floating times in the venue's zone ≥ 90%,
 * and the same keys whether the searcher is in Berlin, Los Angeles or Tokyo. The expected events were written by hand.
 */
describe('real-world corpus', () => {
  const corpus = loadCorpus();

  it('holds at least 60 real files, each with its source, licence and hand-written events', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(60);
    for (const file of corpus) {
      expect(file.source, file.file).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}:/);
      expect(file.licence, file.file).toBeTruthy();
      expect(FORMATS, file.file).toContain(file.format);
      expect(Number.isNaN(Date.parse(file.now)), `${file.file}: now`).toBe(false);
      expect(new URL(file.page_url).protocol, file.file).toMatch(/^https?:$/);
      for (const e of file.events) {
        const shape = e.all_day ? /^\d{4}-\d{2}-\d{2}$/ : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})$/;
        expect(e.starts_at, `${file.file}: ${e.title}`).toMatch(shape);
      }
    }
  });

  it('scores a floating time read in the searcher zone as a wrong start, not as a miss', () => {
    const expected: ExpectedEvent = {
      title: 'Typhoon with Radiation City',
      starts_at: '2013-09-14T21:30:00-06:00',
      all_day: false,
      timezone: 'America/Denver',
      floating: true,
    };
    const found = (startsAt: string, title = expected.title): FoundEvent => foundEvent({ key: 'k', title, starts_at: startsAt });
    const pairs = match(
      [expected],
      [found('2013-09-14T21:30:00+02:00'), found('2013-09-15T05:30:00+02:00', 'SOLD OUT! Typhoon with Radiation City')],
    );
    // The title that contains the expected one, at the right instant, wins over the exact title at the wrong one.
    expect(pairs.get(0)?.title).toBe('SOLD OUT! Typhoon with Radiation City');
    expect(match([expected], [found('2013-09-14T21:30:00+02:00')]).get(0)?.starts_at).toBe('2013-09-14T21:30:00+02:00');
  });

  const score = scoreCorpus(corpus);

  it(`meets the corpus's goals, with the same keys for searchers in ${SEARCHERS.join(' and ')}`, () => {
    const missed = missedGoals(score);
    expect(missed, `${missed.join('; ')}\n\n${formatTable(score)}\n\n${formatProblems(score)}`).toEqual([]);
  });

  it('reads every expected event right but the known misses, and each known miss is still one (a ratchet)', () => {
    const id = (m: { file: string; title: string; starts_at: string }) => `${m.file}: "${m.title}" at ${m.starts_at}`;
    const known = new Map(KNOWN_MISSES.map((m) => [id(m), m]));
    const misses = score.files.flatMap((f) => f.misses);
    const newMisses = misses.filter((m) => known.get(id(m))?.what !== m.what).map((m) => `${id(m)}: ${m.what}`);
    expect(newMisses, `expected events read right before and wrong now\n\n${formatProblems(score)}`).toEqual([]);
    const fixed = KNOWN_MISSES.filter((k) => !misses.some((m) => id(m) === id(k))).map(id);
    expect(fixed, 'read right now: take them off test/support/real-world-known-misses.ts').toEqual([]);
    for (const k of KNOWN_MISSES) expect(k.reason.length, id(k)).toBeGreaterThan(20);
  });
});
