import type { Sql } from '../../db/client';
import type { Event } from '../../core/contract/event';

const DAY = 86_400_000;

/** An event `days` from now (negative: over already), new to the timer unless said otherwise. */
export function seededEvent(title: string, days: number, overrides: Partial<Event> = {}): Event {
  const start = new Date(Date.now() + days * DAY);
  start.setUTCHours(17, 0, 0, 0);
  return {
    key: `seed:${title}`,
    title,
    starts_at: start.toISOString().replace('.000Z', 'Z'),
    ends_at: null,
    all_day: false,
    timezone: null,
    timezone_source: 'offset',
    venue: 'Kulturbrauerei',
    city: 'Berlin',
    online: false,
    url: `https://events.example/${encodeURIComponent(title)}`,
    source_url: 'https://events.example/',
    status: 'scheduled',
    verification: null,
    new: true,
    ...overrides,
  };
}

export interface SeededRun {
  /** Hours before now the run was scheduled. */
  hoursAgo: number;
  events?: Event[];
  /** Keys among `events` that changed since the timer last saw them. */
  changed?: string[];
  status?: 'succeeded' | 'failed' | 'skipped';
  error?: string;
}

/** Writes finished runs of a timer with their events, as the worker records them (db/events.ts). */
export async function seedRuns(sql: Sql, timerId: number, runs: SeededRun[]): Promise<void> {
  for (const run of runs) {
    const at = new Date(Date.now() - run.hoursAgo * 3_600_000);
    const [row] = await sql<{ id: string }[]>`
      insert into timer_runs (timer_id, scheduled_for, status, answer, error, finished_at)
      values (${timerId}, ${at}, ${run.status ?? 'succeeded'}, 'Seeded answer', ${run.error ?? null}, ${at})
      returning id`;
    const events = run.events ?? [];
    for (const [position, event] of events.entries()) {
      await sql`insert into timer_run_events (run_id, position, key, event, is_new, changed)
        values (${row!.id}, ${position}, ${event.key}, ${sql.json(JSON.parse(JSON.stringify(event)))}, ${event.new},
                ${(run.changed ?? []).includes(event.key)})`;
    }
  }
}
