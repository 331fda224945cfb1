import type { GoogleGenAI } from '@google/genai';
import type { Config } from '../config';
import { knownTimeZone } from '../time/time-zone';
import { type AnswerDelivery, type AnswerOptions, askGemini, type Source, sourcesBlock } from '../gemini/answer';
import { buildPrompt } from './prompt';
import type { TimerFilters } from '../contract/timer-filters';
import { filterPromptLines } from '../filters/prompt-lines';
import { priceCall } from '../gemini/priced-call';
import { isStructuredSearchRefusal, noteStructuredSearchRefused, structuredSearchOffered } from '../gemini/structured-search';
import { addUsage, type GeminiUsage, NO_USAGE } from '../gemini/usage';
import type { ServiceTierName } from '../gemini/prices';
import { type ExtractedEvent, ExtractionError } from '../events/model-extraction';
import type { Logger } from '../logger';
import type { RedisClient } from '../redis/client';
import { SearchError } from '../search-error';
import { ANSWER_WITH_EVENTS_SCHEMA, answerWithEventsPrompt, parseAnswerWithEvents } from './answer-with-events';
import { GroundingAllowance, groundingWithheldNote } from './grounding-allowance';
import type { ResolvedAddress } from '../website/fetch';
import { readWebsite, type WebsiteReading } from '../reading/read-website';
import { readingPool } from '../reading/shared-pool';
import { websiteUnreadNote } from './website-unread-note';

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
  /** Where a reply that could not be read is noted (the search goes on). */
  logger?: Logger;
  /** Shared Redis: the event check's robots.txt cache (core/verification/robots.ts). */
  redis?: RedisClient;
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
  /** What the answer's Gemini calls used (the event extraction's is counted where it runs). */
  usage: GeminiUsage;
  /** Their estimated USD at the configured prices. */
  costUsd: number;
  /** Google's Search Suggestions HTML for a grounded answer (shown with it, as Google's terms require). */
  searchSuggestions: string | null;
  /** Grounding sources (already listed at the end of `answer`). */
  sources: Source[];
  /** The events the answer's own call gave with it (one call, docs/decisions/gemini-and-cost.md); null: they are still to be found. */
  answeredEvents: ExtractedEvent[] | null;
  /** The model stopped at its output limit: the answer is a part answer, says so, and is not charged (docs/decisions/gemini-and-cost.md). */
  cut: boolean;
}

/** A search whose website has been read: what is left is asking Gemini. */
export interface PreparedSearch {
  prompt: string;
  grounding: boolean;
  website: WebsiteReading | null;
}

/** Falls back to UTC for a missing or unknown time zone name, so a bad value never fails a search. */
export function safeTimezone(timezone: string): string {
  return knownTimeZone(timezone);
}

/**
 * Step 1: reads the website and the calendars it links behind the guard (throws SearchError 400/502, 503 when
 * too many readings wait) and builds the prompt. `reader`: whose search it is (a user's id), for a website.
 */
export async function prepareSearch(deps: SearchDeps, input: SearchInput, signal?: AbortSignal, reader?: string): Promise<PreparedSearch> {
  const now = new Date();
  const timezone = safeTimezone(input.timezone);
  const site = input.website.trim();
  let website: WebsiteReading | null = null;
  if (site) {
    if (reader === undefined) throw new Error('a website is read for a reader');
    website = await readWebsite(site, {
      allow: deps.config.websiteFetchAllow,
      resolve: deps.resolve,
      signal,
      pool: readingPool(deps.config.reading),
      reader,
      context: { searcherTimezone: timezone, now: now.getTime() },
      logger: deps.logger,
    });
  }
  const wanted = filterPromptLines(input.filters ?? null, { timezone, now });
  const unread = website?.overLimit !== undefined;
  const prompt = [
    buildPrompt({ question: input.question.trim(), timezone, now, website: unread ? null : website }),
    ...(unread ? [`The user's website ${website?.url} could not be read; look for its events on the web.`] : []),
    ...wanted,
  ].join('\n');
  // A website that could not be read leaves the answer to the web, as a search without one.
  return { prompt, grounding: website === null || unread, website };
}

/**
 * Step 2: asks Gemini for the answer and hands its text to `onText`, streamed unless the caller asks for it
 * whole; throws SearchError (check whether text was delivered). A whole answer whose events are not known yet
 * (no website events) is asked in one call with its events where the model allows it (docs/decisions/gemini-and-cost.md); a reply
 * that cannot be read, or a model that refuses, is asked again as a plain answer. Every call after the search's
 * ceiling of Google Search queries goes without grounding, and the answer says so.
 */
export async function answerSearch(
  deps: SearchDeps,
  prepared: PreparedSearch,
  onText: (text: string) => void | Promise<void>,
  signal?: AbortSignal,
  delivery: AnswerDelivery = 'streamed',
): Promise<SearchResult> {
  const { model, thinking, timerTier, maxSearchQueries } = deps.config.gemini;
  const allowance = new GroundingAllowance(maxSearchQueries);
  let usage = NO_USAGE;
  let costUsd = 0;
  const kind = delivery === 'streamed' ? 'ask' : 'timer_run';
  const spend = (model: string, used: GeminiUsage, tier: ServiceTierName) => {
    usage = addUsage(usage, used);
    costUsd += priceCall(deps.config.gemini.prices, kind, model, used, tier);
    allowance.spend(used);
  };
  const ask = async (options: Pick<AnswerOptions, 'prompt' | 'grounding' | 'responseJsonSchema' | 'onText'>) => {
    let outcome: Awaited<ReturnType<typeof askGemini>>;
    try {
      outcome = await askGemini(deps.gemini, {
        model,
        delivery,
        thinking,
        // Nobody watches a whole answer arrive (a timer run): it can wait minutes for half the price.
        tier: delivery === 'whole' ? timerTier : 'standard',
        signal,
        ...options,
      });
    } catch (err) {
      // What a failed call used is billed all the same: priced here, and carried to the search's record.
      if (err instanceof SearchError) {
        const used = err.usedBeforeFailure;
        if (used) spend(used.model, used.usage, used.tier);
        err.spent = { usage, costUsd };
      }
      throw err;
    }
    spend(outcome.answeredBy, outcome.usage, outcome.tier);
    return outcome;
  };

  // Said in the answer itself, so the user and a timer's digest both learn why the website's events are missing.
  const unreadNote = prepared.website?.overLimit ? websiteUnreadNote(prepared.website.url) : '';
  if (delivery === 'whole' && !prepared.website?.events.length) {
    const grounding = allowance.grant(prepared.grounding);
    if (!grounding || structuredSearchOffered(deps.gemini, model)) {
      try {
        const one = await ask({
          prompt: answerWithEventsPrompt(prepared.prompt),
          grounding,
          responseJsonSchema: ANSWER_WITH_EVENTS_SCHEMA,
          onText: () => {},
        });
        const parsed = parseAnswerWithEvents(one.answer);
        const answer = parsed.answer + sourcesBlock(one.sources) + unreadNote;
        await onText(answer);
        const { sources, searchSuggestions } = one;
        return { model, answer, usage, costUsd, sources, searchSuggestions, answeredEvents: parsed.events, cut: false };
      } catch (err) {
        if (err instanceof ExtractionError) {
          deps.logger?.warn({ err: err.message }, 'the answer with its events could not be read; asking for the answer alone');
        } else if (err instanceof SearchError && isStructuredSearchRefusal(err.cause)) {
          noteStructuredSearchRefused(deps.gemini, model);
        } else {
          throw err;
        }
      }
    }
  }

  const outcome = await ask({ prompt: prepared.prompt, grounding: allowance.grant(prepared.grounding), onText });
  let answer = outcome.answer;
  if (allowance.withheld) {
    const note = groundingWithheldNote(allowance.ceiling);
    answer += note;
    await onText(note);
  }
  if (unreadNote) {
    answer += unreadNote;
    await onText(unreadNote);
  }
  const { sources, searchSuggestions } = outcome;
  return { model, answer, usage, costUsd, sources, searchSuggestions, answeredEvents: null, cut: outcome.cut };
}
