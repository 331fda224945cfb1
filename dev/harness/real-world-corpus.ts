import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FoundEvent } from '../../core/contract/event';
import { eventsFromFacts } from '../../core/events/from-facts';
import { extractFacts } from '../../core/website/extract';
import { decodeBody } from '../../core/website/decode-body';

/**
 * The real-world corpus (test/fixtures/real-world/, see its README): real files written by others, each with
 * the events a person read in it. Scoring runs the pipeline without Gemini, extractFacts then eventsFromFacts,
 * as searchers far apart, so a time read in the searcher's zone instead of the venue's shows, and so
 * does a key that depends on who looks. Used by test/real-world-events.test.ts and `make bench ONLY=extraction`.
 */
export const CORPUS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/real-world');

/**
 * The searchers, far apart (Los Angeles nine hours behind Berlin, Tokyo eight ahead), so a floating time read in the
 * searcher's zone instead of the venue's is wrong for at least one of them, and a key that depends on who looks shows.
 */
export const SEARCHERS = ['Europe/Berlin', 'America/Los_Angeles', 'Asia/Tokyo'] as const;

export const FORMATS = ['json-ld', 'microdata', 'rdfa', 'h-event', 'hcalendar', 'data-vocabulary', 'ics'] as const;
export type CorpusFormat = (typeof FORMATS)[number];

export interface ExpectedEvent {
  title: string;
  /** ISO 8601 with the venue's offset, or YYYY-MM-DD when all day. */
  starts_at: string;
  all_day: boolean;
  timezone: string | null;
  /** The source wrote the time without offset or zone: the venue (or the calendar) decides the zone. */
  floating: boolean;
  status?: 'scheduled' | 'moved' | 'cancelled' | 'tentative';
  url?: string;
}

export interface CorpusFile {
  /** File name without extension, e.g. 'schemaorg-eg0012-jsonld'. */
  name: string;
  file: string;
  source: string;
  licence: string;
  format: CorpusFormat;
  page_url: string;
  /** The instant the file is read at (the anchor of the recurrence window). */
  now: string;
  contentType: string;
  body: string;
  events: ExpectedEvent[];
}

const CONTENT_TYPES: Record<string, string> = { '.html': 'text/html', '.ics': 'text/calendar', '.json': 'application/ld+json' };

/** Every file of the corpus with its expectation; throws on a file without one or an expectation without a file. */
export function loadCorpus(dir = CORPUS_DIR): CorpusFile[] {
  const names = readdirSync(dir);
  const files: CorpusFile[] = [];
  for (const file of names.sort()) {
    const ext = path.extname(file);
    if (!(ext in CONTENT_TYPES) || file.endsWith('.expected.json')) continue;
    const name = file.slice(0, -ext.length);
    const expectedFile = `${name}.expected.json`;
    if (!names.includes(expectedFile)) throw new Error(`${file} has no ${expectedFile}: write its expected events by hand.`);
    const expected = JSON.parse(readFileSync(path.join(dir, expectedFile), 'utf8')) as Omit<
      CorpusFile,
      'name' | 'file' | 'contentType' | 'body'
    >;
    if (!FORMATS.includes(expected.format)) throw new Error(`${expectedFile}: unknown format ${expected.format}.`);
    files.push({
      ...expected,
      name,
      file,
      contentType: CONTENT_TYPES[ext]!,
      body: decodeBody(readFileSync(path.join(dir, file)), CONTENT_TYPES[ext]!),
    });
  }
  for (const file of names.filter((f) => f.endsWith('.expected.json'))) {
    const name = file.slice(0, -'.expected.json'.length);
    if (!files.some((f) => f.name === name)) throw new Error(`${file} has no corpus file beside it.`);
  }
  return files;
}

/** What one searcher got from one file: the events, or the error the pipeline threw. */
export interface Reading {
  events: FoundEvent[];
  error?: string;
}

/** The pipeline the corpus measures: the page's structured events as contract events, for one searcher. */
export function readFile(file: CorpusFile, searcherTimezone: string): Reading {
  try {
    const facts = extractFacts({ url: file.page_url, contentType: file.contentType, body: file.body });
    return { events: eventsFromFacts(facts, { searcherTimezone, now: new Date(file.now) }) };
  } catch (err) {
    return { events: [], error: err instanceof Error ? err.message : String(err) };
  }
}

/** Lower-case letters and digits only: titles match whatever their spacing, case, accents or punctuation. */
export function normaliseTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Same title, or one contains the other (a status word such as "CANCELLED -" added or removed). */
function titlesMatch(expected: string, found: string): boolean {
  const a = normaliseTitle(expected);
  const b = normaliseTitle(found);
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 4 && ` ${long} `.includes(` ${short} `);
}

/** The same instant, or for an all-day event the same date (and the found event is all day too). */
export function startRight(expected: ExpectedEvent, found: FoundEvent): boolean {
  if (!found.starts_at) return false;
  if (expected.all_day) return found.all_day && found.starts_at.slice(0, 10) === expected.starts_at;
  return !found.all_day && Date.parse(found.starts_at) === Date.parse(expected.starts_at);
}

const distance = (expected: ExpectedEvent, found: FoundEvent): number => {
  const f = found.starts_at ? Date.parse(found.starts_at.length === 10 ? `${found.starts_at}T00:00:00Z` : found.starts_at) : NaN;
  const e = Date.parse(expected.all_day ? `${expected.starts_at}T00:00:00Z` : expected.starts_at);
  return Number.isNaN(f) ? Number.POSITIVE_INFINITY : Math.abs(f - e);
};

/**
 * Pairs expected with found events one to one: first same title and right start, then same title and the
 * nearest start (so a start read in the wrong zone is a match with a wrong start, not a miss plus an extra).
 */
export function match(expected: ExpectedEvent[], found: FoundEvent[]): Map<number, FoundEvent> {
  const pairs = new Map<number, FoundEvent>();
  const used = new Set<number>();
  expected.forEach((e, i) => {
    const j = found.findIndex((f, k) => !used.has(k) && titlesMatch(e.title, f.title) && startRight(e, f));
    if (j >= 0) {
      pairs.set(i, found[j]!);
      used.add(j);
    }
  });
  expected.forEach((e, i) => {
    if (pairs.has(i)) return;
    let best = -1;
    for (let k = 0; k < found.length; k++) {
      if (used.has(k) || !titlesMatch(e.title, found[k]!.title)) continue;
      if (best < 0 || distance(e, found[k]!) < distance(e, found[best]!)) best = k;
    }
    if (best >= 0) {
      pairs.set(i, found[best]!);
      used.add(best);
    }
  });
  return pairs;
}

/** What a file, or the corpus, is scored on: counts of events. */
interface Counts {
  expected: number;
  found: number;
  matched: number;
  startsRight: number;
  floating: number;
  floatingRight: number;
  withStatus: number;
  statusRight: number;
}

/** An expected event that is not read right: missing, at another start, in the searcher's zone, another status. */
export interface Miss {
  file: string;
  title: string;
  starts_at: string;
  what: 'missing' | 'start' | 'floating' | 'status';
}

export interface FileScore extends Counts {
  file: CorpusFile;
  /** Each expected event not read right, for the ratchet (test/support/real-world-known-misses.ts). */
  misses: Miss[];
  readings: Record<(typeof SEARCHERS)[number], Reading>;
  /** Keys one searcher got and the other did not (both directions). */
  keysDiffering: string[];
  /** One line per problem, for a reader fixing the code. */
  problems: string[];
}

const sortedKeys = (events: FoundEvent[]) => events.map((e) => e.key).sort();

function keyDifference(a: string[], b: string[]): string[] {
  const rest = [...b];
  const onlyA: string[] = [];
  for (const key of a) {
    const i = rest.indexOf(key);
    if (i >= 0) rest.splice(i, 1);
    else onlyA.push(key);
  }
  return [...onlyA, ...rest];
}

/** Scores one file: the first searcher's reading for recall, precision and starts; both for floating times and keys. */
export function scoreFile(file: CorpusFile): FileScore {
  const [near, ...others] = SEARCHERS;
  const readings = Object.fromEntries(SEARCHERS.map((zone) => [zone, readFile(file, zone)])) as FileScore['readings'];
  const primary = readings[near];
  const pairs = match(file.events, primary.events);
  const otherPairs = others.map((zone) => ({ zone, pairs: match(file.events, readings[zone].events) }));
  const problems: string[] = [];
  for (const [searcher, reading] of Object.entries(readings)) {
    if (reading.error) problems.push(`threw for a searcher in ${searcher}: ${reading.error}`);
  }
  let startsRight = 0;
  let floating = 0;
  let floatingRight = 0;
  let withStatus = 0;
  let statusRight = 0;
  const misses: Miss[] = [];
  const miss = (e: ExpectedEvent, what: Miss['what']) => {
    // One miss per event: the first thing wrong with it.
    if (!misses.some((m) => m.title === e.title && m.starts_at === e.starts_at))
      misses.push({ file: file.name, title: e.title, starts_at: e.starts_at, what });
  };
  file.events.forEach((e, i) => {
    const f = pairs.get(i);
    if (!f) {
      problems.push(`missing "${e.title}" at ${e.starts_at}`);
      miss(e, 'missing');
    } else if (startRight(e, f)) startsRight++;
    else {
      problems.push(`"${e.title}" starts at ${f.starts_at}${f.all_day ? ' (all day)' : ''}, expected ${e.starts_at}`);
      miss(e, 'start');
    }
    if (e.floating) {
      floating++;
      const wrong = otherPairs.map((o) => ({ zone: o.zone, g: o.pairs.get(i) })).find(({ g }) => !g || !startRight(e, g));
      if (f && startRight(e, f) && !wrong) floatingRight++;
      else if (f && startRight(e, f) && wrong?.g) {
        problems.push(`floating "${e.title}" read as ${wrong.g.starts_at} by a searcher in ${wrong.zone}, expected ${e.starts_at}`);
        miss(e, 'floating');
      }
    }
    if (f && e.status) {
      withStatus++;
      const want = e.status === 'tentative' ? ['tentative', 'scheduled'] : [e.status];
      if (want.includes(f.status)) statusRight++;
      else {
        problems.push(`"${e.title}" at ${e.starts_at} is ${f.status}, expected ${e.status}`);
        miss(e, 'status');
      }
    }
  });
  const matchedFound = new Set(pairs.values());
  for (const f of primary.events) {
    if (!matchedFound.has(f)) problems.push(`unexpected "${f.title}" at ${f.starts_at}`);
  }
  const keysDiffering = [
    ...new Set(others.flatMap((zone) => keyDifference(sortedKeys(primary.events), sortedKeys(readings[zone].events)))),
  ];
  if (keysDiffering.length) problems.push(`keys differ between searchers: ${keysDiffering.slice(0, 4).join(', ')}`);
  return {
    file,
    misses,
    readings,
    expected: file.events.length,
    found: primary.events.length,
    matched: pairs.size,
    startsRight,
    floating,
    floatingRight,
    withStatus,
    statusRight,
    keysDiffering,
    problems,
  };
}

export interface Totals extends Counts {
  files: number;
  keysDiffering: number;
}

export interface Rates {
  recall: number;
  precision: number;
  startsRight: number;
  floatingRight: number;
  statusRight: number;
}

/** Ratios in 0..1; a ratio with nothing to count (no event found, none floating) is 1. */
export function rates(t: Totals): Rates {
  const ratio = (n: number, d: number) => (d === 0 ? 1 : n / d);
  return {
    recall: ratio(t.matched, t.expected),
    precision: ratio(t.matched, t.found),
    // Of the events found (recall counts the rest); floating times below are of every event marked floating.
    startsRight: ratio(t.startsRight, t.matched),
    floatingRight: ratio(t.floatingRight, t.floating),
    statusRight: ratio(t.statusRight, t.withStatus),
  };
}

export interface CorpusScore {
  files: FileScore[];
  byFormat: Map<CorpusFormat, Totals>;
  overall: Totals;
}

function add(into: Totals, s: FileScore): void {
  into.files++;
  into.expected += s.expected;
  into.found += s.found;
  into.matched += s.matched;
  into.startsRight += s.startsRight;
  into.floating += s.floating;
  into.floatingRight += s.floatingRight;
  into.withStatus += s.withStatus;
  into.statusRight += s.statusRight;
  into.keysDiffering += s.keysDiffering.length;
}

const zero = (): Totals => ({
  files: 0,
  expected: 0,
  found: 0,
  matched: 0,
  startsRight: 0,
  floating: 0,
  floatingRight: 0,
  withStatus: 0,
  statusRight: 0,
  keysDiffering: 0,
});

export function scoreCorpus(files = loadCorpus()): CorpusScore {
  const scores = files.map(scoreFile);
  const byFormat = new Map<CorpusFormat, Totals>();
  const overall = zero();
  for (const s of scores) {
    if (!byFormat.has(s.file.format)) byFormat.set(s.file.format, zero());
    add(byFormat.get(s.file.format)!, s);
    add(overall, s);
  }
  return { files: scores, byFormat, overall };
}

/** The corpus's goals for reading events: recall, precision, starts right, floating times in the venue's zone, keys. */
export const GOALS = { recall: 0.95, precision: 0.98, startsRight: 0.99, floatingRight: 0.9, keysDiffering: 0 } as const;

/** Which goals the overall figures miss, as sentences. */
export function missedGoals(score: CorpusScore): string[] {
  const r = rates(score.overall);
  const missed: string[] = [];
  const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
  if (r.recall < GOALS.recall) missed.push(`recall ${pct(r.recall)} < ${pct(GOALS.recall)}`);
  if (r.precision < GOALS.precision) missed.push(`precision ${pct(r.precision)} < ${pct(GOALS.precision)}`);
  if (r.startsRight < GOALS.startsRight) missed.push(`starts right ${pct(r.startsRight)} < ${pct(GOALS.startsRight)}`);
  if (r.floatingRight < GOALS.floatingRight)
    missed.push(`floating times in the venue's zone ${pct(r.floatingRight)} < ${pct(GOALS.floatingRight)}`);
  if (score.overall.keysDiffering > GOALS.keysDiffering)
    missed.push(`${score.overall.keysDiffering} keys differ between searchers in ${SEARCHERS.join(' and ')}`);
  return missed;
}

/** The per-format table (Markdown) with the overall row last. */
export function formatTable(score: CorpusScore): string {
  const header = [
    'format',
    'files',
    'expected',
    'found',
    'matched',
    'recall',
    'precision',
    'starts right',
    'floating right',
    'status right',
    'keys differing',
  ];
  const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
  const row = (name: string, t: Totals) => {
    const r = rates(t);
    return [
      name,
      String(t.files),
      String(t.expected),
      String(t.found),
      String(t.matched),
      pct(r.recall),
      pct(r.precision),
      pct(r.startsRight),
      t.floating ? `${pct(r.floatingRight)} of ${t.floating}` : '–',
      t.withStatus ? `${pct(r.statusRight)} of ${t.withStatus}` : '–',
      String(t.keysDiffering),
    ];
  };
  const lines = [...FORMATS.filter((f) => score.byFormat.has(f)).map((f) => row(f, score.byFormat.get(f)!)), row('all', score.overall)];
  const missing = FORMATS.filter((f) => !score.byFormat.has(f));
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const print = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [
    print(header),
    print(widths.map((w) => '-'.repeat(w))),
    ...lines.map(print),
    ...(missing.length ? [`(no file in the corpus yet for: ${missing.join(', ')})`] : []),
  ].join('\n');
}

/** Each file's problems, for the reader of a failing run. */
export function formatProblems(score: CorpusScore, perFile = 6): string {
  return score.files
    .filter((s) => s.problems.length)
    .map((s) => {
      const more = s.problems.length > perFile ? [`  … and ${s.problems.length - perFile} more`] : [];
      return [`${s.file.file} (${s.file.format}):`, ...s.problems.slice(0, perFile).map((p) => `  - ${p}`), ...more].join('\n');
    })
    .join('\n');
}
