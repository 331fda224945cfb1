import type { GoogleGenAI } from '@google/genai';
import type { Config } from '../config';
import { isValidTimeZone } from '../timers/schedule';
import type { WebsiteFacts } from '../website/extract';
import { type AnswerDelivery, askGemini, type Source } from '../gemini/answer';
import { buildPrompt } from './prompt';
import type { TimerFilters } from '../contract/timer-filters';
import { filterPromptLines } from '../filters/prompt-lines';
import { estimateCost } from '../gemini/prices';
import type { GeminiUsage } from '../gemini/usage';
import { countGeminiUsage } from '../metrics';
import type { ResolvedAddress } from '../website/fetch';
import { readWebsite } from '../website/read-website';

export { SearchError, type SearchErrorCode } from '../search-error';
export type { AnswerDelivery, Source } from '../gemini/answer';

/**
 * The search pipeline shared by /api/ask and the timer worker: website guard + fetch, extraction, prompt,
 * Gemini stream.
 */
export interface SearchDeps {
  gemini: GoogleGenAI;
  config: Config;
  /** Host name resolver for the website guard; the system resolver when absent (tests inject one). */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
}

export interface SearchInput {
  question: string;
  /** Empty, or an http(s) URL. */
  website: string;
  /** IANA time zone of the user, e.g. 'Europe/Berlin'. */
  timezone: string;
  /** Which found events to keep (a timer's, or a search's from the page); asked for in the prompt too. */
  filters?: TimerFilters | null;
}

export interface SearchResult {
  answer: string;
  model: string;
  /** What the answer's Gemini call used (the event extraction's is counted where it runs). */
  usage: GeminiUsage;
  /** Its estimated USD at the configured prices. */
  costUsd: number;
  /** Google's Search Suggestions HTML for a grounded answer (shown with it, as Google's terms require). */
  searchSuggestions: string | null;
  /** Grounding sources (already listed at the end of `answer`). */
  sources: Source[];
}

/** A search whose website has been read: what is left is asking Gemini. */
export interface PreparedSearch {
  prompt: string;
  grounding: boolean;
  website: WebsiteFacts | null;
}

/** Falls back to UTC for a missing or unknown time zone name, so a bad value never fails a search. */
export function safeTimezone(timezone: string): string {
  return isValidTimeZone(timezone) ? timezone : 'UTC';
}

/**
 * Step 1: reads the website and the calendars it links behind the guard (throws SearchError 400/502) and
 * builds the prompt.
 */
export async function prepareSearch(deps: SearchDeps, input: SearchInput, signal?: AbortSignal): Promise<PreparedSearch> {
  const website = input.website.trim()
    ? await readWebsite(input.website.trim(), { allow: deps.config.websiteFetchAllow, resolve: deps.resolve, signal })
    : null;
  const now = new Date();
  const timezone = safeTimezone(input.timezone);
  const wanted = filterPromptLines(input.filters ?? null, { timezone, now });
  const prompt = [buildPrompt({ question: input.question.trim(), timezone, now, website }), ...wanted].join('\n');
  return { prompt, grounding: website === null, website };
}

/**
 * Step 2: asks Gemini for the answer and hands its text to `onText`, streamed unless the caller asks for it
 * whole; throws SearchError (check whether text was delivered).
 */
export async function answerSearch(
  deps: SearchDeps,
  prepared: PreparedSearch,
  onText: (text: string) => void | Promise<void>,
  signal?: AbortSignal,
  delivery: AnswerDelivery = 'streamed',
): Promise<SearchResult> {
  const { model, thinking, timerTier } = deps.config.gemini;
  const outcome = await askGemini(deps.gemini, {
    model,
    delivery,
    thinking,
    prompt: prepared.prompt,
    grounding: prepared.grounding,
    // Nobody watches a whole answer arrive (a timer run): it can wait minutes for half the price.
    tier: delivery === 'whole' ? timerTier : 'standard',
    signal,
    onText,
  });
  const costUsd = estimateCost(deps.config.gemini.prices, outcome.answeredBy, outcome.usage, new Date(), outcome.tier);
  countGeminiUsage(delivery === 'streamed' ? 'ask' : 'timer_run', outcome.answeredBy, outcome.usage, costUsd);
  const { answer, usage, sources, searchSuggestions } = outcome;
  return { model, answer, usage, costUsd, sources, searchSuggestions };
}
