import { parseSchedule, type Schedule } from './schedule';

/** At most this many active timers per user: each fire costs a credit and a Gemini call. */
export const MAX_TIMERS_PER_USER = 20;
export const MAX_QUESTION_CHARS = 2000;
export const MAX_WEBSITE_CHARS = 2048;

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
  const schedule = parseSchedule(b);
  if (!schedule.ok) return schedule;
  const ques = typeof b.ques === 'string' ? b.ques.trim() : '';
  if (!ques) return { ok: false, message: 'Please type a question for the timer to repeat.' };
  if (ques.length > MAX_QUESTION_CHARS) {
    return { ok: false, message: `The question is too long: keep it under ${MAX_QUESTION_CHARS} characters.` };
  }
  if (b.web !== undefined && b.web !== null && typeof b.web !== 'string') {
    return { ok: false, message: 'Website URL must be text.' };
  }
  const web = typeof b.web === 'string' ? b.web.trim() : '';
  if (web.length > MAX_WEBSITE_CHARS) {
    return { ok: false, message: `The website URL is too long: keep it under ${MAX_WEBSITE_CHARS} characters.` };
  }
  if (web && !isHttpUrl(web)) {
    return { ok: false, message: 'Website URL must start with http:// or https:// (or leave it empty).' };
  }
  return { ok: true, input: { ...schedule.schedule, ques, web } };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
