import { type ScheduleRequest, TIMER_EMPTY_QUESTION } from '../contract/timers';
import { controlCharacterMessage, hasControlCharacters } from '../control-characters';
import { checkQuestion } from '../question-input';
import { parseSchedule, type Schedule } from './schedule';
import type { TimerFilters } from '../contract/timer-filters';
import { resolveFilters } from '../filters/resolve';

/** At most this many active timers per user: each fire costs a credit and a Gemini call. */
export const MAX_TIMERS_PER_USER = 20;

export interface TimerInput extends Schedule {
  ques: string;
  web: string;
  /** Absent or null: the timer keeps every event it finds. */
  filters?: TimerFilters | null;
}

export type TimerInputCheck = { ok: true; input: TimerInput } | { ok: false; message: string };

/** The rules for a POST /api/schedule body; `message` is a sentence the page shows after 'Backend error: '. */
export function parseTimerInput(body: ScheduleRequest): TimerInputCheck {
  // The schedule's fields are one-line names and times; a control character there is refused by name.
  for (const [field, name] of [
    ['scheduleType', 'schedule type'],
    ['time', 'time'],
    ['weekday', 'weekday'],
    ['timezone', 'time zone'],
  ] as const) {
    const value = body[field];
    if (typeof value === 'string' && hasControlCharacters(value, 'single-line'))
      return { ok: false, message: controlCharacterMessage(name) };
  }
  const schedule = parseSchedule(body);
  if (!schedule.ok) return schedule;
  const question = checkQuestion(body.ques, body.web, TIMER_EMPTY_QUESTION);
  if (!question.ok) return question;
  const { ques, web } = question;
  const filters = resolveFilters(body.filters);
  if (!filters.ok) return filters;
  return { ok: true, input: { ...schedule.schedule, ques, web, filters: filters.filters } };
}
