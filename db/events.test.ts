import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FoundEvent } from '../core/contract/event';
import { cancelledOccurrence, classifyEvents } from '../core/events/only-new';
import { createTestDatabase, type TestDatabase } from '../dev/harness/db';
import { foundEvent } from '../dev/harness/found-event';
import { claimedRun } from '../test/support/runs';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { recordRunEvents, recordSearchEvents } from './events';
import { startSearchRecord } from './searches';
import { insertTimer } from './timers';

const found = (title: string, day: string): FoundEvent =>
  foundEvent({
    key: `https://events.example/${title.toLowerCase().replaceAll(' ', '-')}`,
    title,
    starts_at: `${day}T18:00:00+01:00`,
    timezone: 'Europe/Berlin',
    city: 'Berlin',
    online: false,
    source_url: 'https://events.example/',
  });

/** The classification core gives recordRunEvents: only-new against what the timer remembers. */
const onlyNew = (events: FoundEvent[]) => (seen: Parameters<typeof classifyEvents>[1]) => classifyEvents(events, seen, new Date());

describe('recording the events of searches and timer runs', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  const search = async (userId: number) =>
    startSearchRecord(db.sql, { userId, question: 'AI meetups', website: '', model: 'gemini-flash-latest', timerRunId: null });

  it("marks a search's events new unless the user found them in an earlier search, and stores them once", async () => {
    const { user } = await createSignedInUser(db.sql);
    const { user: other } = await createSignedInUser(db.sql);
    const meetup = found('Vector Night', '2026-12-03');
    const talk = found('Robotics Talk', '2026-12-09');

    const first = await search(user.id);
    expect((await recordSearchEvents(db.sql, { id: first, userId: user.id }, [meetup])).map((e) => e.new)).toEqual([true]);
    const second = await search(user.id);
    const again = await recordSearchEvents(db.sql, { id: second, userId: user.id }, [talk, meetup]);
    expect(again.map((e) => [e.title, e.new])).toEqual([
      ['Robotics Talk', true],
      ['Vector Night', false],
    ]);
    // Another user's history is not this user's.
    const theirs = await search(other.id);
    expect((await recordSearchEvents(db.sql, { id: theirs, userId: other.id }, [meetup])).map((e) => e.new)).toEqual([true]);

    // Recorded again for the same search: nothing changes, and the stored events keep their flags and order.
    await recordSearchEvents(db.sql, { id: second, userId: user.id }, [talk, meetup]);
    const stored = await db.sql<{ key: string; position: number; new: boolean; title: string }[]>`
      select key, position, (event ->> 'new')::boolean as new, event ->> 'title' as title
      from search_events where search_id = ${second} order by position`;
    expect(stored.map((r) => [r.position, r.title, r.new])).toEqual([
      [0, 'Robotics Talk', true],
      [1, 'Vector Night', false],
    ]);
  });

  it("leaves out a series' cancelled date the user never found before, and keeps one they did (docs/decisions/events-as-data.md)", async () => {
    const { user } = await createSignedInUser(db.sql);
    // A weekly meetup read from an iCalendar feed: 10 December is an EXDATE, 17 December a date held.
    const occurrence = (day: string, status: FoundEvent['status']): FoundEvent => ({
      ...found('Vector Night', day),
      key: `series:uid:vector-night@events.example@${day}T18:00`,
      status,
    });
    const excluded = occurrence('2026-12-10', 'cancelled');
    const held = occurrence('2026-12-17', 'scheduled');
    const first = await search(user.id);
    const listed = await recordSearchEvents(db.sql, { id: first, userId: user.id }, [excluded, held], { onlyIfSeen: cancelledOccurrence });
    expect(listed.map((e) => [e.starts_at, e.status])).toEqual([['2026-12-17T18:00:00+01:00', 'scheduled']]);
    const stored = await db.sql<{ key: string }[]>`select key from search_events where search_id = ${first}`;
    expect(stored.map((r) => r.key)).toEqual([held.key]);

    // Seen held in one search and cancelled in the next: that is news, listed as cancelled.
    const second = await search(user.id);
    await recordSearchEvents(db.sql, { id: second, userId: user.id }, [occurrence('2026-12-24', 'scheduled')], {
      onlyIfSeen: cancelledOccurrence,
    });
    const third = await search(user.id);
    const later = await recordSearchEvents(db.sql, { id: third, userId: user.id }, [occurrence('2026-12-24', 'cancelled')], {
      onlyIfSeen: cancelledOccurrence,
    });
    expect(later.map((e) => [e.status, e.new])).toEqual([['cancelled', false]]);
  });

  it('calls an event new in one run of a timer only, however many runs record it at once', async () => {
    const { user } = await createSignedInUser(db.sql);
    const timer = await insertTimer(db.sql, user.id, dailyTimer());
    const runs = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        return (await claimedRun(db.sql, timer.id, new Date(Date.UTC(2026, 10, 23 + i, 9)))).id;
      }),
    );
    const events = [found('Vector Night', '2026-12-03'), found('Robotics Talk', '2026-12-09')];
    const recorded = await Promise.all(runs.map((id) => recordRunEvents(db.sql, { id, timerId: timer.id }, onlyNew(events))));
    for (const key of events.map((e) => e.key)) {
      const newIn = recorded.filter((r) => r.some((e) => e.event.key === key && e.event.new));
      expect(newIn).toHaveLength(1);
    }
    // A redelivered run gets the events it recorded the first time.
    expect(await recordRunEvents(db.sql, { id: runs[0]!, timerId: timer.id }, onlyNew([]))).toEqual(recorded[0]);
  });

  it('gives executions of one run that record at once the same events, as the first recorded them', async () => {
    const { user } = await createSignedInUser(db.sql);
    const timer = await insertTimer(db.sql, user.id, dailyTimer());
    const run = await claimedRun(db.sql, timer.id, new Date('2026-11-23T09:00:00Z'));
    const events = [found('Vector Night', '2026-12-03'), found('Robotics Talk', '2026-12-09')];
    const executions = await Promise.all(
      Array.from({ length: 4 }, () => recordRunEvents(db.sql, { id: run.id, timerId: timer.id }, onlyNew(events))),
    );
    for (const recorded of executions) {
      expect(recorded.map((r) => [r.event.title, r.event.new])).toEqual([
        ['Vector Night', true],
        ['Robotics Talk', true],
      ]);
    }
  });
});
