import type { GoogleGenAI } from '@google/genai';
import type { Sql } from '../../db/client';
import { type RunEvent, recordRunEvents, recordSearchEvents } from '../../db/events';
import type { Event } from '../contract/event';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { PreparedSearch, SearchResult } from './index';
import { safeTimezone } from './index';
import { collectEvents } from '../events/collect';
import { priceCall } from '../gemini/priced-call';
import type { CallUsage } from '../../db/searches';
import { cancelledOccurrence, classifyEvents } from '../events/only-new';
import type { TimerFilters } from '../contract/timer-filters';
import { applyFilters, hiddenReason } from '../filters/apply';
import type { RedisClient } from '../redis/client';
import { checkEvents } from '../verification/check-events';
import { keptEvents } from './stored-events';
import { deliveredWhenChecked } from '../verification/checked-only';
import type { ResolvedAddress } from '../website/fetch';

export interface EventsDeps {
  sql: Sql;
  gemini: GoogleGenAI;
  config: Pick<Config, 'gemini' | 'eventChecking' | 'websiteFetchAllow' | 'queuePrefix' | 'reading'>;
  logger?: Logger;
  /** The robots.txt cache of the event check (core/verification). */
  redis?: RedisClient;
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
}

export interface AnsweredSearch {
  searchId: number;
  userId: number;
  /**
   * The timer run this search answered, with its timer (whose memory says which events are new), and whether
   * the timer takes only checked events.
   */
  timerRun?: { id: number; timerId: number; checkedOnly?: boolean };
  timezone: string;
  /** Found events these filters do not keep are never stored, so no reply, digest or feed carries them. */
  filters?: TimerFilters | null;
  prepared: PreparedSearch;
  result: Pick<SearchResult, 'answer' | 'model' | 'sources' | 'answeredEvents'>;
  signal?: AbortSignal;
}

export interface AnsweredEvents {
  /** As the caller shows them: a run's new ones first. */
  events: Event[];
  /** A timer run's events with whether each changed since the timer last saw it; empty for other searches. */
  runEvents: RunEvent[];
  /**
   * What the extraction call used, priced; null when none was made (the answer gave its events, or named only the
   * website's). The caller writes it with the search's outcome, so a search's row is written once after its answer.
   */
  extraction: CallUsage | null;
  /** The extraction or the events' writes failed: `events` are those it has (the website's, or none). */
  failed: boolean;
}

/**
 * The events of an answered search, collected (website facts + the model's extraction) and stored: for the
 * search, and for a timer run against the timer's memory (new / changed). Never throws: the answer is already
 * out, so a failure here is logged and costs the events only (an extraction made before it is still returned).
 */
export async function eventsOfAnsweredSearch(deps: EventsDeps, s: AnsweredSearch): Promise<AnsweredEvents> {
  const logger = deps.logger;
  let extraction: CallUsage | null = null;
  let failed = false;
  try {
    const collected = await collectEvents(
      { gemini: deps.gemini, logger },
      {
        settings: { model: s.result.model, thinking: deps.config.gemini.thinking },
        extractionModel: deps.config.gemini.extractionModel,
        prompt: s.prepared.prompt,
        answer: s.result.answer,
        sources: s.result.sources,
        website: s.prepared.website,
        userTimezone: safeTimezone(s.timezone),
        signal: s.signal,
        answered: s.result.answeredEvents,
        onExtractionFailed: () => {
          failed = true;
        },
        onUsage: (usage, answeredBy) => {
          extraction = { ...usage, costUsd: priceCall(deps.config.gemini.prices, 'extraction', answeredBy, usage) };
        },
      },
    );
    // Right after the model's events are known, before anything is stored or delivered: a corrected event is
    // recorded (and keyed) with the page's values.
    const check = await checkEvents(deps, {
      events: collected,
      sources: s.result.sources,
      website: s.prepared.website?.url ?? null,
      searcherTimezone: safeTimezone(s.timezone),
      reader: String(s.userId),
      signal: s.signal,
    });
    if (check.pagesRead + check.pagesFailed > 0)
      logger?.info(
        { searchId: s.searchId, pagesRead: check.pagesRead, pagesFailed: check.pagesFailed, seconds: check.seconds },
        'checked the events against their pages',
      );
    const checked = s.timerRun?.checkedOnly ? deliveredWhenChecked(check.events) : check.events;
    // Before only-new: an event the filters drop is neither new to the timer nor remembered by it.
    const kept = applyFilters(checked, s.filters ?? null, { timezone: safeTimezone(s.timezone), now: new Date() });
    if (kept.length < collected.length)
      logger?.info({ searchId: s.searchId, dropped: collected.length - kept.length }, 'filters left out events');
    const found = kept;
    // Those the filters left out are kept beside the search, hidden, so the page can say how many and show them.
    // A series' cancelled date counts for a search only when the user found that date in an earlier search.
    const keptKeys = new Set(kept.map((e) => e.key));
    const why = hiddenReason(s.filters ?? null, { timezone: safeTimezone(s.timezone), now: new Date() });
    const hidden = checked
      .filter((e) => !keptKeys.has(e.key))
      .map((e) => {
        const reason = why(e);
        return reason ? { ...e, hidden_by: reason } : e;
      });
    // A search keeps a bounded number of events (a calendar can give thousands); the rest is counted, not stored,
    // and a timer's run and memory take the same ones.
    const stored = keptEvents(found, hidden, new Date());
    if (stored.leftOut > 0)
      logger?.info({ searchId: s.searchId, leftOut: stored.leftOut }, `left out ${stored.leftOut} events past the bound of one search`);
    const forSearch = await recordSearchEvents(deps.sql, { id: s.searchId, userId: s.userId }, stored.shown, {
      hidden: stored.hidden,
      leftOut: stored.leftOut,
      onlyIfSeen: cancelledOccurrence,
    });
    if (s.timerRun === undefined) return { events: forSearch, runEvents: [], extraction, failed };
    // Classified under the timer's lock (db/events.ts), against what the timer remembers then.
    const runEvents = await recordRunEvents(deps.sql, s.timerRun, (seen) => classifyEvents(stored.shown, seen, new Date()));
    return { events: runEvents.map((r) => r.event), runEvents, extraction, failed };
  } catch (err) {
    logger?.error({ err, searchId: s.searchId }, 'could not collect or store the events of a search');
    return { events: [], runEvents: [], extraction, failed: true };
  }
}
