import type { GoogleGenAI } from '@google/genai';
import { z } from 'zod';
import type { GeminiSettings } from '../gemini/model';
import type { Source } from '../gemini/answer';
import { withExtractionModel } from '../gemini/extraction-model';
import { withThinking } from '../gemini/thinking-call';
import { type GeminiUsage, UsageReader } from '../gemini/usage';
import { canonicalUrl } from './canonical-url';
import { eventKey, normaliseCity, normaliseTitle } from './event-key';
import { eventTime } from './event-time';
import type { FoundEvent } from '../contract/event';
import { cleanText, safeLink, TITLE_MAX } from './strict-values';
import { repeatWords } from './repeat-words';
import { parseStatedRepeat, repeatRule, STATED_REPEAT_SCHEMA } from './stated-repeat';

/** The reply's JSON schema: what Gemini's structured output must follow (the Event of docs/contract.md). */
export const EXTRACTION_SCHEMA = {
  type: 'object',
  properties: {
    events: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          title: { type: 'string' },
          starts_at: { type: ['string', 'null'], description: 'ISO 8601 with offset, or YYYY-MM-DD when all_day' },
          ends_at: { type: ['string', 'null'], description: 'ISO 8601 with offset, or YYYY-MM-DD when all_day' },
          all_day: { type: 'boolean' },
          timezone: { type: ['string', 'null'], description: 'IANA time zone name of the event' },
          venue: { type: ['string', 'null'] },
          city: { type: ['string', 'null'] },
          online: { type: ['boolean', 'null'] },
          url: { type: ['string', 'null'], description: "the event's own page" },
          status: { type: 'string', enum: ['scheduled', 'moved', 'cancelled'] },
          repeat: STATED_REPEAT_SCHEMA,
        },
        required: ['title', 'starts_at', 'ends_at', 'all_day', 'timezone', 'venue', 'city', 'online', 'url', 'status'],
      },
    },
  },
  required: ['events'],
} as const;

/** What the extraction is told of `repeat`: its start date is the event's first, and the form is filled only from words. */
export const REPEAT_INSTRUCTION =
  'When the text says an event repeats on a fixed weekday rule after its date ("then every second Tuesday"), give ' +
  'that date as its start and the rule as "repeat"; otherwise "repeat" is null.';

export const EXTRACTION_INSTRUCTION =
  'Extract every event named in the answer below as JSON. Use only what the answer and the website facts say; ' +
  'unknown fields are null. Times are ISO 8601 with the offset of the place, or YYYY-MM-DD for all-day events. ' +
  REPEAT_INSTRUCTION;

/** The prompt of the extraction call: the search prompt verbatim, then the answer to extract from. */
export function extractionPrompt(searchPrompt: string, answer: string): string {
  return `${searchPrompt}\n\n${EXTRACTION_INSTRUCTION}\n\nANSWER TO EXTRACT FROM:\n${answer}`;
}

// Lenient per field: one odd value costs that field, not the event; one odd event costs that event only.
const nullableString = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 500) : null));
const extractedEvent = z.object({
  title: z.string().trim().min(1).max(300),
  starts_at: nullableString,
  ends_at: nullableString,
  all_day: z
    .unknown()
    .optional()
    .transform((v) => v === true),
  timezone: nullableString,
  venue: nullableString,
  city: nullableString,
  online: z
    .unknown()
    .optional()
    .transform((v) => (typeof v === 'boolean' ? v : null)),
  url: nullableString,
  status: z
    .unknown()
    .optional()
    .transform((v) => (v === 'moved' || v === 'cancelled' ? v : 'scheduled') as 'scheduled' | 'moved' | 'cancelled'),
  // A form that is not exactly the closed one costs the repeat, never the event.
  repeat: z
    .unknown()
    .optional()
    .transform((v) => parseStatedRepeat(v)),
});
export type ExtractedEvent = z.infer<typeof extractedEvent>;

/** Thrown when the reply is not the agreed JSON at all; single bad events are skipped instead. */
export class ExtractionError extends Error {
  override name = 'ExtractionError';
}

/** The events of a structured reply's text; throws ExtractionError when it is not `{events: [...]}`. */
export function parseExtraction(text: string): ExtractedEvent[] {
  let json: unknown;
  try {
    // Some models wrap JSON in a Markdown fence even when asked for JSON.
    json = JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    throw new ExtractionError(`The extraction reply is not JSON: ${text.slice(0, 120)}`);
  }
  return eventsOfJson(json);
}

/** The events of a parsed reply `{events: [...]}`; throws ExtractionError when it has no such list. */
export function eventsOfJson(json: unknown): ExtractedEvent[] {
  const list = (json as { events?: unknown })?.events;
  if (!Array.isArray(list)) throw new ExtractionError('The extraction reply has no "events" list.');
  return list.flatMap((item) => {
    const parsed = extractedEvent.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * Contract events from extracted ones. `source_url` is the website when there was one, else the grounding
 * source that is the event's own page or carries its title (Gemini's sources are redirect links).
 */
export function eventsFromExtraction(
  extracted: ExtractedEvent[],
  context: { userTimezone: string; website: string | null; sources: Source[] },
): FoundEvent[] {
  return extracted.map((x) => {
    const when = eventTime({
      start: x.starts_at,
      end: x.ends_at,
      known: { own: x.timezone ? { zone: x.timezone, source: 'model' } : null, searcherTimezone: context.userTimezone },
    });
    const title = normaliseTitle(x.title);
    const own = canonicalUrl(x.url);
    const source =
      context.website ??
      context.sources.find((s) => (own && canonicalUrl(s.uri) === own) || (s.title && normaliseTitle(s.title) === title))?.uri ??
      null;
    // Models (and the page text they read) often write an online event's place as "Online ...".
    const venue = cleanText(x.venue);
    const event: FoundEvent = {
      key: '',
      title: cleanText(x.title, TITLE_MAX) ?? 'Event',
      ...when,
      venue: venue && /^online\b/i.test(venue) ? null : venue,
      city: cleanText(x.city),
      online: x.online ?? (venue && /^online\b/i.test(venue) ? true : null),
      url: safeLink(x.url),
      source_url: safeLink(source),
      status: x.status,
      // The model's word until checkEvents (core/verification) reads its source.
      verification: null,
    };
    event.key = eventKey(event, context.website);
    return withStatedRepeat(event, x);
  });
}

/**
 * The event as one card of a series, when the extraction stated how it repeats and the rule agrees with its
 * own start (docs/decisions/events-as-data.md); else unchanged. Its key is a series' identity (title and city, as a
 * page's series without a UID) and its local start, so it is shown and exported as a structured series is.
 */
function withStatedRepeat(event: FoundEvent, x: ExtractedEvent): FoundEvent {
  if (!x.repeat || event.status !== 'scheduled' || !event.starts_at) return event;
  const rrule = repeatRule(x.repeat, event);
  const repeats = rrule ? repeatWords(rrule) : null;
  if (!rrule || !repeats) return event;
  const start = event.all_day ? event.starts_at.slice(0, 10) : event.starts_at.slice(0, 16);
  return {
    ...event,
    key: `series:event:${normaliseTitle(event.title)}|${normaliseCity(event.city)}@${start}`,
    repeats,
    rrule,
  };
}

export interface ExtractionRequest {
  /** The model and its thinking settings, as the answer was asked with. */
  settings: GeminiSettings;
  /** The model the extraction asks instead (`GEMINI_EXTRACTION_MODEL`); absent or null: the answer's. */
  extractionModel?: string | null;
  /** The search prompt as sent for the answer (core/search/prompt.ts). */
  prompt: string;
  answer: string;
  signal?: AbortSignal;
  /** Told what the call used, whether or not its reply could be read (a call that answered is paid for). */
  onUsage?: (usage: GeminiUsage, answeredBy: string) => void;
}

/** One non-streaming structured-output call, no tools (Gemini refuses JSON output with Google Search). */
export async function extractWithModel(gemini: GoogleGenAI, req: ExtractionRequest): Promise<ExtractedEvent[]> {
  const { response, model } = await withExtractionModel(gemini, req.settings, req.extractionModel, (settings, health) =>
    withThinking(
      gemini,
      settings,
      async (thinking) => ({
        model: settings.model,
        response: await gemini.models.generateContent({
          model: settings.model,
          contents: [{ role: 'user', parts: [{ text: extractionPrompt(req.prompt, req.answer) }] }],
          config: {
            ...thinking,
            responseMimeType: 'application/json',
            responseJsonSchema: EXTRACTION_SCHEMA,
            abortSignal: req.signal,
          },
        }),
      }),
      health,
    ),
  );
  const usage = new UsageReader();
  usage.read(response);
  req.onUsage?.(usage.usage(), usage.modelVersion ?? model);
  const parts = response.candidates?.[0]?.content?.parts ?? [];
  const text = parts.map((p) => (p.thought ? '' : (p.text ?? ''))).join('');
  if (!text.trim()) {
    throw new ExtractionError(`The extraction reply is empty (finish reason ${response.candidates?.[0]?.finishReason ?? 'none'}).`);
  }
  return parseExtraction(text);
}
