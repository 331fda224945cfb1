import { describe, expect, it } from 'vitest';
import { cronPattern, nextRunAt, nextRuns, parseSchedule, type Schedule } from './schedule';
import { parseTimerInput } from './input';

const berlin = (time: string, scheduleType: 'daily' | 'weekly' = 'daily', weekday: Schedule['weekday'] = null): Schedule => ({
  scheduleType,
  time,
  weekday,
  timezone: 'Europe/Berlin',
});

describe('parseSchedule', () => {
  const good = { scheduleType: 'daily', time: '09:00', weekday: 'Monday', timezone: 'Europe/Berlin' };

  it('accepts daily and drops its weekday', () => {
    expect(parseSchedule(good)).toEqual({ ok: true, schedule: { ...good, weekday: null } });
    for (const weekday of [undefined, null, ''])
      expect(parseSchedule({ ...good, weekday })).toEqual({ ok: true, schedule: { ...good, weekday: null } });
  });

  it('accepts weekly with a weekday', () => {
    expect(parseSchedule({ ...good, scheduleType: 'weekly', weekday: 'Sunday' })).toMatchObject({
      ok: true,
      schedule: { weekday: 'Sunday' },
    });
  });

  it.each([
    [{ scheduleType: 'hourly' }, /daily' or 'weekly/],
    [{ time: '24:00' }, /HH:MM/],
    [{ time: '9:5' }, /HH:MM/],
    [{ time: '09:60' }, /HH:MM/],
    [{ scheduleType: 'weekly', weekday: undefined }, /needs a day of the week/],
    [{ scheduleType: 'weekly', weekday: 'Funday' }, /Monday, Tuesday/],
    [{ weekday: 'funday' }, /^A daily timer runs every day and needs no weekday: leave it out, or send a day from Monday to Sunday\.$/],
    [{ weekday: 7 }, /^A daily timer runs every day and needs no weekday/],
    [{ weekday: 'monday' }, /^A daily timer runs every day and needs no weekday/],
    [{ scheduleType: 'weekly', weekday: 7 }, /Monday, Tuesday/],
    [{ timezone: 'Mars/Olympus' }, /IANA time zone/],
    [{ timezone: '' }, /IANA time zone/],
    [{ timezone: '+05:00' }, /^The time zone "\+05:00" is a fixed offset from UTC/],
    [{ timezone: 'EST5EDT' }, /^The time zone "EST5EDT" is a POSIX rule, not a place/],
  ])('refuses %j', (patch, message) => {
    const result = parseSchedule({ ...good, ...patch });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it('stores the IANA name of a zone typed in another case', () => {
    expect(parseSchedule({ ...good, timezone: 'europe/berlin' })).toMatchObject({ ok: true, schedule: { timezone: 'Europe/Berlin' } });
  });

  it('knows IANA names', () => {
    const at = (timezone: string) => parseSchedule({ scheduleType: 'daily', time: '09:00', timezone }).ok;
    expect(at('America/New_York')).toBe(true);
    expect(at('Mars/Olympus')).toBe(false);
  });
});

describe('parseTimerInput', () => {
  const good = { scheduleType: 'daily', time: '09:00', weekday: 'Monday', timezone: 'UTC', ques: ' AI events ', web: '' };
  it('trims the question', () => {
    expect(parseTimerInput(good)).toMatchObject({ ok: true, input: { ques: 'AI events', web: '' } });
  });
  it.each([
    [{ ques: '   ' }, /type a question/],
    [{ ques: 'x'.repeat(2001) }, /too long/],
    [{ web: 'ftp://example.com' }, /http/],
    [{ web: `https://example.com/${'a'.repeat(2048)}` }, /too long/],
  ])('refuses %#', (patch, message) => {
    const result = parseTimerInput({ ...good, ...patch });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });
});

describe('cronPattern', () => {
  it('builds minute hour * * day-of-week', () => {
    expect(cronPattern(berlin('09:05'))).toBe('5 9 * * *');
    expect(cronPattern(berlin('23:59', 'weekly', 'Sunday'))).toBe('59 23 * * 0');
    expect(cronPattern(berlin('00:00', 'weekly', 'Monday'))).toBe('0 0 * * 1');
  });
});

describe('next run and daylight-saving time', () => {
  it('fires weekly on the chosen day', () => {
    // Saturday 2026-03-28 → next Monday.
    expect(nextRunAt(berlin('09:00', 'weekly', 'Monday'), new Date('2026-03-28T12:00:00Z')).toISOString()).toBe('2026-03-30T07:00:00.000Z');
  });

  it('keeps 09:00 Europe/Berlin at 09:00 local across the spring change', () => {
    const runs = nextRuns(berlin('09:00'), new Date('2026-03-27T12:00:00Z'), 3).map((d) => d.toISOString());
    // CET (UTC+1) before Sunday 29 March, CEST (UTC+2) from it on.
    expect(runs).toEqual(['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z']);
  });

  it('keeps 09:00 Europe/Berlin at 09:00 local across the autumn change', () => {
    const runs = nextRuns(berlin('09:00'), new Date('2026-10-24T00:00:00Z'), 2).map((d) => d.toISOString());
    expect(runs).toEqual(['2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z']);
  });

  it('fires a time inside the spring-forward gap once, an hour later by the clock (03:30 CEST)', () => {
    // 02:30 does not exist in Berlin on 2026-03-29: clocks jump from 02:00 to 03:00.
    const runs = nextRuns(berlin('02:30'), new Date('2026-03-28T12:00:00Z'), 2).map((d) => d.toISOString());
    expect(runs).toEqual(['2026-03-29T01:30:00.000Z', '2026-03-30T00:30:00.000Z']);
  });

  it('fires a time inside the autumn overlap once, at its first occurrence (02:30 CEST)', () => {
    const runs = nextRuns(berlin('02:30'), new Date('2026-10-24T12:00:00Z'), 2).map((d) => d.toISOString());
    expect(runs).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
  });
});

describe('nextRunAt within a minute', () => {
  it('gives the first fire strictly after the exact instant, asked twice or at any second', () => {
    const schedule = berlin('09:00');
    // 09:00 CET is 08:00 UTC in November.
    for (const from of ['2026-11-23T07:59:00Z', '2026-11-23T07:59:59.999Z', '2026-11-23T08:00:00Z', '2026-11-23T08:00:30Z']) {
      const expected = nextRuns(schedule, new Date(from), 1)[0]!.toISOString();
      expect(nextRunAt(schedule, new Date(from)).toISOString()).toBe(expected);
      expect(nextRunAt(schedule, new Date(from)).toISOString()).toBe(expected);
    }
    expect(nextRunAt(schedule, new Date('2026-11-23T07:59:30Z')).toISOString()).toBe('2026-11-23T08:00:00.000Z');
    expect(nextRunAt(schedule, new Date('2026-11-23T08:00:30Z')).toISOString()).toBe('2026-11-24T08:00:00.000Z');
  });
});

describe("BullMQ's scheduler", () => {
  it('computes the same fires as nextRuns, across both changes', async () => {
    const { defaultRepeatStrategy } = await import('bullmq');
    for (const [time, from] of [
      ['09:00', '2026-03-27T12:00:00Z'],
      ['02:30', '2026-03-28T12:00:00Z'],
      ['09:00', '2026-10-24T00:00:00Z'],
    ] as const) {
      const schedule = berlin(time);
      let at = new Date(from).getTime();
      for (const expected of nextRuns(schedule, new Date(from), 3)) {
        const next = defaultRepeatStrategy(at, { pattern: cronPattern(schedule), tz: schedule.timezone });
        expect(next).toBe(expected.getTime());
        at = next as number;
      }
    }
  });
});
