import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FoundEvent, Verification } from '../core/contract/event';
import { sameStart } from '../core/events/event-time';
import { checkEvents } from '../core/verification/check-events';
import { foundEvent } from '../dev/harness/found-event';
import { titlesMatch } from '../core/verification/match-event';
import { type CorpusFile, type ExpectedEvent, loadCorpus } from '../dev/harness/real-world-corpus';

/**
 * Checking the model's events against pages written by others: each page of the real-world corpus
 * (test/fixtures/real-world/, with the events a person read in it) served on loopback as the page an answer cites.
 * For each file, the model is made to name up to four of its events three ways: at the date the person read
 * (it must be confirmed), a day and two hours off (corrected back to the date the person read), and an event the
 * page does not list (it must stay unconfirmed). The rules of checking were written against the stand-in's
 * pages, not these: this is how they hold on real ones.
 */
const PER_FILE = 4;
const HOUR_MS = 3_600_000;
const SEARCHER = 'Europe/Berlin';

interface Tally {
  right: number;
  confirmed: number;
  wrong: number;
  corrected: number;
  unlisted: number;
  unconfirmed: number;
  /** A model start the page contradicts, marked confirmed: never allowed. */
  confirmedAgainstPage: string[];
  misses: string[];
}

const modelEvent = (e: ExpectedEvent, startsAt: string, url: string, title = e.title): FoundEvent =>
  foundEvent({ key: `${title}|${startsAt}`, title, starts_at: startsAt, all_day: e.all_day, timezone: e.timezone, url });

/** The model's wrong date: a day and two hours late, or the next day for a whole-day event. */
function offByADay(e: ExpectedEvent): string {
  if (e.all_day) return new Date(Date.parse(`${e.starts_at}T00:00:00Z`) + 24 * HOUR_MS).toISOString().slice(0, 10);
  const offset = e.starts_at.slice(19);
  const sign = offset.startsWith('-') ? -1 : 1;
  const offsetMs = offset === 'Z' ? 0 : sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))) * 60_000;
  return `${new Date(Date.parse(e.starts_at) + 26 * HOUR_MS + offsetMs).toISOString().slice(0, 19)}${offset}`;
}

const sameDate = (a: string | null, e: ExpectedEvent) => (e.all_day ? a?.slice(0, 10) === e.starts_at : sameStart(a, e.starts_at));

/** Events the checks can judge: a start a person could pin to an instant, and a title seen once around it. */
function checkable(file: CorpusFile): ExpectedEvent[] {
  const judged = file.events.filter((e) => e.timezone !== null || !e.floating);
  const near = (a: ExpectedEvent, b: ExpectedEvent) => Math.abs(Date.parse(a.starts_at) - Date.parse(b.starts_at)) <= 4 * 24 * HOUR_MS;
  // A series meeting daily (or twice a week) has another occurrence as near as the wrong date: either is a fair
  // match, so such events are left out rather than scored against one of them.
  return judged.filter((e) => !file.events.some((o) => o !== e && titlesMatch(o.title, e.title) && near(o, e))).slice(0, PER_FILE);
}

describe('events checked against real pages written by others', () => {
  const corpus = loadCorpus().filter((f) => checkable(f).length > 0);
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    const byPath = new Map(corpus.map((f) => [`/${f.file}`, f]));
    server = createServer((req, res) => {
      const file = byPath.get(req.url ?? '');
      if (!file) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': `${file.contentType}; charset=utf-8` }).end(file.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const check = (file: CorpusFile, events: FoundEvent[]) =>
    checkEvents(
      {
        config: {
          eventChecking: { maxPages: 5, userAgent: 'EventFinder/1.0 (test)' },
          websiteFetchAllow: [new URL(origin).host],
          queuePrefix: 'test-checked-corpus',
          reading: { timeLimitMs: 10_000, heapMb: 256, maxEvents: 20_000, threads: 2, queueLimit: 32 },
        },
      },
      { events, sources: [], website: null, searcherTimezone: SEARCHER, now: new Date(file.now) },
    );

  it('confirms right dates, corrects wrong ones from the page, and never confirms what a page does not list', async () => {
    const tally: Tally = {
      right: 0,
      confirmed: 0,
      wrong: 0,
      corrected: 0,
      unlisted: 0,
      unconfirmed: 0,
      confirmedAgainstPage: [],
      misses: [],
    };
    for (const file of corpus) {
      const url = `${origin}/${file.file}`;
      const expected = checkable(file);
      const right = await check(
        file,
        expected.map((e) => modelEvent(e, e.starts_at, url)),
      );
      right.events.forEach((got, i) => {
        tally.right++;
        if (got.verification?.status === 'confirmed') tally.confirmed++;
        else tally.misses.push(`${file.name}: "${expected[i]!.title}" at its date was ${outcome(got.verification)}`);
      });

      const wrongEvents = expected.map((e) => modelEvent(e, offByADay(e), url));
      const unlisted = modelEvent(expected[0]!, offByADay(expected[0]!), url, 'Harbour Lantern Parade for Volunteers');
      const wrong = await check(file, [...wrongEvents, unlisted]);
      wrong.events.slice(0, expected.length).forEach((got, i) => {
        const e = expected[i]!;
        tally.wrong++;
        if (got.verification?.status === 'confirmed') tally.confirmedAgainstPage.push(`${file.name}: "${e.title}"`);
        if (got.verification?.status === 'corrected' && sameDate(got.starts_at, e)) tally.corrected++;
        else tally.misses.push(`${file.name}: "${e.title}" a day off was ${outcome(got.verification)} to ${got.starts_at}`);
      });
      tally.unlisted++;
      const last = wrong.events.at(-1)!;
      if (last.verification?.status === 'unconfirmed') tally.unconfirmed++;
      else tally.misses.push(`${file.name}: an event the page does not list was ${outcome(last.verification)}`);
    }
    const report = `${JSON.stringify({ ...tally, misses: undefined, confirmedAgainstPage: undefined })}\n${tally.misses.join('\n')}`;
    expect(tally.right, report).toBeGreaterThanOrEqual(300);
    expect(tally.confirmed / tally.right, report).toBeGreaterThanOrEqual(0.95);
    expect(tally.corrected / tally.wrong, report).toBeGreaterThanOrEqual(0.95);
    expect(tally.unconfirmed, report).toBe(tally.unlisted);
    expect(tally.confirmedAgainstPage, report).toEqual([]);
  }, 240_000);
});

function outcome(v: Verification | null): string {
  return v ? v.status : 'not checked';
}
