import type { GoogleGenAI } from '@google/genai';
import { type ModelDescription, modelDescriptionSchema } from '../../contract/describe';
import { WEEKDAYS } from '../../contract/schedule-values';
import type { GeminiSettings } from '../../gemini/model';
import { withThinking } from '../../gemini/thinking-call';
import { type GeminiUsage, UsageReader } from '../../gemini/usage';

/** The first line of the describe prompt; the Gemini stand-in knows the call by it. */
export const DESCRIBE_MARKER = 'DESCRIBE A TIMER';

const nullable = (type: string, extra: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...extra });

/** The reply's JSON schema for Gemini's structured output (checked again with modelDescriptionSchema). */
export const DESCRIBE_SCHEMA = {
  type: 'object',
  properties: {
    refusal: nullable('string', {
      description: 'when the sentence asks for anything but daily, or weekly on one weekday, at one time: why',
    }),
    scheduleType: nullable('string', { enum: ['daily', 'weekly', null] }),
    time: nullable('string', { description: 'HH:MM, 24-hour clock; null when no time is said' }),
    weekday: nullable('string', { enum: [...WEEKDAYS, null] }),
    question: {
      type: 'string',
      description:
        'what to look for, in the words and language of the sentence, with the place as said (e.g. "AI meetups within 20 km of Berlin")',
    },
    website: nullable('string'),
    window_next_days: nullable('integer'),
    window_from: nullable('string', { description: 'YYYY-MM-DD' }),
    window_to: nullable('string', { description: 'YYYY-MM-DD' }),
    place: nullable('string', { description: 'a city name' }),
    radius_km: nullable('number'),
    attendance: { type: 'string', enum: ['both', 'in_person', 'online'] },
    exclude: { type: 'array', items: { type: 'string' } },
    unclear: { type: 'array', items: { type: 'string' }, description: 'parts of the sentence not understood' },
  },
  required: [
    'refusal',
    'scheduleType',
    'time',
    'weekday',
    'question',
    'website',
    'window_next_days',
    'window_from',
    'window_to',
    'place',
    'radius_km',
    'attendance',
    'exclude',
    'unclear',
  ],
} as const;

/** The prompt: the rules of a timer, today's date and zone, then the sentence verbatim on its last line. */
export function describePrompt(sentence: string, today: string, timezone: string): string {
  return [
    DESCRIBE_MARKER,
    'Turn the sentence into a saved search that repeats: daily, or weekly on one weekday, at one time (HH:MM, 24 h).',
    'Anything else (twice a week, every weekday, monthly, two times) is a refusal: say why in one sentence.',
    'The question keeps what to look for as the sentence says it, its place included; the place is also a filter.',
    'Filters: a date window (next N days, or from/to dates), a city with a radius in km, attendance, words to exclude.',
    'Never guess: leave a field null and list the words you did not understand in unclear.',
    `Today is ${today}; the user's time zone is ${timezone}.`,
    `SENTENCE: ${sentence}`,
  ].join('\n');
}

/** Thrown when the reply is not the agreed JSON; the page then asks the person to fill in the form. */
export class DescribeReplyError extends Error {
  override name = 'DescribeReplyError';
}

/** One structured-output call, no tools; the reply checked with the contract's schema. */
export async function describeWithModel(
  gemini: GoogleGenAI,
  settings: GeminiSettings,
  req: {
    sentence: string;
    today: string;
    timezone: string;
    signal?: AbortSignal;
    onUsage?: (usage: GeminiUsage, model: string) => void;
  },
): Promise<ModelDescription> {
  const response = await withThinking(gemini, settings, (thinking) =>
    gemini.models.generateContent({
      model: settings.model,
      contents: [{ role: 'user', parts: [{ text: describePrompt(req.sentence, req.today, req.timezone) }] }],
      config: { ...thinking, responseMimeType: 'application/json', responseJsonSchema: DESCRIBE_SCHEMA, abortSignal: req.signal },
    }),
  );
  const usage = new UsageReader();
  usage.read(response);
  req.onUsage?.(usage.usage(), usage.modelVersion ?? settings.model);
  const text = (response.candidates?.[0]?.content?.parts ?? []).map((p) => (p.thought ? '' : (p.text ?? ''))).join('');
  let json: unknown;
  try {
    json = JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    throw new DescribeReplyError(`The describe reply is not JSON: ${text.slice(0, 120)}`);
  }
  const parsed = modelDescriptionSchema.safeParse(json);
  if (!parsed.success) throw new DescribeReplyError(`The describe reply does not fit the schema: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}
