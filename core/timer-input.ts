import { controlCharacterMessage, hasControlCharacters } from './control-characters';
import { checkQuestion } from './question-input';
import { parseSchedule, type Schedule } from './schedule';

/** At most this many active timers per user: each fire costs a credit and a Gemini call. */
export const MAX_TIMERS_PER_USER = 20;

export interface TimerInput extends Schedule {
  ques: string;
  web: string;
}

export type TimerInputCheck = { ok: true; input: TimerInput } | { ok: false; message: string };

/** Validates the whole POST /api/schedule body; `message` is a sentence the page shows after 'Backend error: '. */
export function parseTimerInput(body: unknown): TimerInputCheck {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, message: 'The request body must be a JSON object with scheduleType, time, weekday, ques, web and timezone.' };
  }
  const b = body as Record<string, unknown>;
  // The schedule's fields are one-line names and times; a control character there is refused by name.
  for (const [field, name] of [
    ['scheduleType', 'schedule type'],
    ['time', 'time'],
    ['weekday', 'weekday'],
    ['timezone', 'time zone'],
  ] as const) {
    const value = b[field];
    if (typeof value === 'string' && hasControlCharacters(value, 'single-line'))
      return { ok: false, message: controlCharacterMessage(name) };
  }
  const schedule = parseSchedule(b);
  if (!schedule.ok) return schedule;
  const question = checkQuestion(b.ques, b.web, 'Please type a question for the timer to repeat.');
  if (!question.ok) return question;
  const { ques, web } = question;
  return { ok: true, input: { ...schedule.schedule, ques, web } };
}
