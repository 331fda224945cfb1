import type { GoogleGenAI } from '@google/genai';
import type { Config } from '../config';
import { isValidTimeZone } from '../timers/schedule';
import type { WebsiteFacts } from '../website/extract';
import { type AnswerDelivery, askGemini, type Source } from '../gemini/answer';
import { buildPrompt } from './prompt';
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
}

export interface SearchResult {
  answer: string;
  model: string;
  promptTokens: number | null;
  outputTokens: number | null;
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
  const prompt = buildPrompt({ question: input.question.trim(), timezone: safeTimezone(input.timezone), now: new Date(), website });
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
  const { model, thinking } = deps.config.gemini;
  const outcome = await askGemini(deps.gemini, {
    model,
    delivery,
    thinking,
    prompt: prepared.prompt,
    grounding: prepared.grounding,
    signal,
    onText,
  });
  return { model, ...outcome };
}
