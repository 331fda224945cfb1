import type { GoogleGenAI } from '@google/genai';
import type { Logger } from '../logger';
import type { WebsiteReading } from '../reading/read-website';
import type { GeminiSettings } from '../gemini/model';
import type { Source } from '../gemini/answer';
import type { FoundEvent } from '../contract/event';
import { mergeEventsRead } from './merge';
import { answerNamesOnlyWebsiteEvents } from './answer-coverage';
import { type ExtractedEvent, type ExtractionRequest, eventsFromExtraction, extractWithModel } from './model-extraction';

export interface CollectInput {
  settings: GeminiSettings;
  /** The extraction call's own model (`GEMINI_EXTRACTION_MODEL`); null: the answer's. */
  extractionModel?: string | null;
  /** The search prompt the answer was given for. */
  prompt: string;
  answer: string;
  sources: Source[];
  /** The website as read in the reading pool: its facts and its own events, already made from them. */
  website: WebsiteReading | null;
  userTimezone: string;
  signal?: AbortSignal;
  /** Told what the extraction call used. */
  onUsage?: ExtractionRequest['onUsage'];
  /** The events the answer's own call gave with it (one call): no extraction call is made. */
  answered?: ExtractedEvent[] | null;
  /** Told when the extraction call failed (the website's events are still returned). */
  onExtractionFailed?: (err: unknown) => void;
}

/**
 * The events of an answered search: the website's own structured events (exact) merged with the model's
 * extraction from the answer. A failed extraction is logged and costs only its events, never the search.
 */
export async function collectEvents(deps: { gemini: GoogleGenAI; logger?: Logger }, input: CollectInput): Promise<FoundEvent[]> {
  const overBound = input.website?.droppedEvents ?? 0;
  if (overBound > 0) {
    deps.logger?.info({ website: input.website?.url, count: overBound }, `left out ${overBound} events past the bound of one reading`);
  }
  const unreadable = input.website?.unreadableEvents ?? 0;
  if (unreadable > 0) {
    deps.logger?.info({ website: input.website?.url, count: unreadable }, `left out ${unreadable} events the website wrote unreadably`);
  }
  // Nothing is left out silently: what the window or a limit dropped is logged with the page.
  for (const { what, count } of input.website?.leftOut ?? []) {
    deps.logger?.info({ website: input.website?.url, count }, `left out ${count} ${what}`);
  }
  const exact = input.website?.found ?? [];
  const context = { userTimezone: input.userTimezone, website: input.website?.url ?? null, sources: input.sources };
  let extracted: FoundEvent[] = [];
  if (input.answered) {
    extracted = eventsFromExtraction(input.answered, context);
  } else if (input.website && answerNamesOnlyWebsiteEvents(input.answer, input.website, exact)) {
    // The website's own data already gave every event the answer names: asking the model again finds the same.
    deps.logger?.debug(
      { website: input.website.url, exact: exact.length },
      'event extraction skipped: the answer names only website events',
    );
  } else {
    try {
      const raw = await extractWithModel(deps.gemini, {
        settings: input.settings,
        extractionModel: input.extractionModel,
        prompt: input.prompt,
        answer: input.answer,
        signal: input.signal,
        onUsage: input.onUsage,
      });
      extracted = eventsFromExtraction(raw, context);
    } catch (err) {
      deps.logger?.warn({ err: (err as Error).message, exact: exact.length }, 'event extraction failed; keeping the website events');
      input.onExtractionFailed?.(err);
    }
  }
  return mergeEventsRead([input.website?.url ?? null], exact, extracted);
}
