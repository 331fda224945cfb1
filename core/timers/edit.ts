import type { ScheduleRequest } from '../contract/timers';
import { parseTimerInput } from './input';
import type { Schedule } from './schedule';

/** What a timer asks and when: the fields of POST /api/schedule, which an edit may change in place. */
export interface TimerDefinition extends Schedule {
  ques: string;
  web: string;
}

/** The fields of POST /api/schedule as an edit sends them; any left out keep the timer's value. */
export type DefinitionEdit = Pick<ScheduleRequest, 'scheduleType' | 'time' | 'weekday' | 'timezone' | 'ques' | 'web'>;

const DEFINITION_FIELDS = ['scheduleType', 'time', 'weekday', 'timezone', 'ques', 'web'] as const;

/** Whether a PATCH body changes what the timer asks or when (not only its delivery settings). */
export function editsDefinition(body: DefinitionEdit): boolean {
  return DEFINITION_FIELDS.some((field) => body[field] !== undefined);
}

export type DefinitionCheck = { ok: true; definition: TimerDefinition } | { ok: false; message: string };

/**
 * The timer as it would be after the edit, checked by the same rules as a new timer (core/timers/input.ts), so
 * an edit can never save what creation refuses. A weekly timer keeps its day when only its time changes; a
 * daily one drops it.
 */
export function editedDefinition(current: TimerDefinition, edit: DefinitionEdit): DefinitionCheck {
  const pick = <K extends (typeof DEFINITION_FIELDS)[number]>(field: K) => (edit[field] !== undefined ? edit[field] : current[field]);
  const check = parseTimerInput({
    scheduleType: pick('scheduleType'),
    time: pick('time'),
    weekday: pick('weekday'),
    timezone: pick('timezone'),
    ques: pick('ques'),
    web: pick('web'),
  });
  if (!check.ok) return check;
  const { scheduleType, time, weekday, timezone, ques, web } = check.input;
  return { ok: true, definition: { scheduleType, time, weekday, timezone, ques, web } };
}

/** Whether two definitions say the same thing (a changed one means a new job scheduler). */
export function sameDefinition(a: TimerDefinition, b: TimerDefinition): boolean {
  return DEFINITION_FIELDS.every((field) => a[field] === b[field]);
}
