import type { GoogleGenAI } from '@google/genai';
import type { DescribeReply, DescribedTimer, ModelDescription } from '../../contract/describe';
import { NO_FILTERS, type TimerFilters } from '../../contract/timer-filters';
import { localDate } from '../../filters/apply';
import { findPlace } from '../../filters/gazetteer';
import type { GeminiSettings } from '../../gemini/model';
import type { GeminiUsage } from '../../gemini/usage';
import { channelAsked, channelNote } from './channel-phrases';
import { DEFAULT_RADIUS_KM } from './filter-phrases';
import { describeWithModel } from './model-describe';
import { parseSentence } from './sentence-parser';

export type DescribeOutcome = { kind: 'described'; reply: DescribeReply } | { kind: 'refused'; message: string };

export interface DescribeDeps {
  gemini: GoogleGenAI;
  settings: GeminiSettings;
  /** Told what the model's call used (none for a sentence the parser read), to be counted and priced. */
  onUsage?: (usage: GeminiUsage, model: string) => void;
}

/**
 * A timer from a sentence, for the person to check before saving (nothing is saved here): the common forms
 * by the deterministic parser, at no cost; the rest by one structured Gemini call. Throws when that call
 * fails or answers off-schema (the caller says so; the form still works by hand).
 */
export async function describeTimer(
  deps: DescribeDeps,
  req: { sentence: string; timezone: string; now: Date; signal?: AbortSignal },
): Promise<DescribeOutcome> {
  // "… and post it to Slack": the service is kept for the form to ask its address; the rest is the timer.
  const ask = channelAsked(req.sentence);
  if (!ask) return describeWithoutChannel(deps, req);
  const outcome = await describeWithoutChannel(deps, { ...req, sentence: ask.rest });
  if (outcome.kind === 'refused') return outcome;
  const { reply } = outcome;
  return { kind: 'described', reply: { ...reply, notes: [...reply.notes, channelNote(ask.kind)], channel: { kind: ask.kind } } };
}

async function describeWithoutChannel(
  deps: DescribeDeps,
  req: { sentence: string; timezone: string; now: Date; signal?: AbortSignal },
): Promise<DescribeOutcome> {
  const parsed = parseSentence(req.sentence, req.now);
  if (parsed.kind === 'refused') return parsed;
  if (parsed.kind === 'described') return { kind: 'described', reply: { timer: parsed.timer, notes: parsed.notes, source: 'parser' } };
  const today = localDate(req.now, req.timezone);
  const model = await describeWithModel(deps.gemini, deps.settings, {
    sentence: req.sentence,
    today,
    timezone: req.timezone,
    signal: req.signal,
    onUsage: deps.onUsage,
  });
  if (model.refusal) return { kind: 'refused', message: model.refusal };
  const unread = unreadWords(model);
  if (unread) return { kind: 'refused', message: unread };
  return { kind: 'described', reply: fromModel(model) };
}

/**
 * The sentence saying nothing was read, when the model found no schedule, no time and no question of its own
 * (its question is empty or words it did not understand): then nothing is filled in, rather than a form of
 * defaults beside "not understood".
 */
export function unreadWords(m: ModelDescription): string | null {
  const unclear = m.unclear.map((w) => w.trim()).filter(Boolean);
  const question = m.question.trim().toLowerCase();
  const ownQuestion = question !== '' && !unclear.some((w) => w.toLowerCase() === question);
  if (m.scheduleType || m.time || ownQuestion) return null;
  const words = unclear.length ? `“${unclear.join('”, “')}”` : 'your sentence';
  return `We could not read ${words}, so nothing is filled in. Say when and what to look for, e.g. “every Friday at 8 pm, AI meetups in Berlin”, or fill in the form yourself.`;
}

/** The model's description as the form's fields; what it left out or got unusable is said in a note. */
export function fromModel(m: ModelDescription): DescribeReply {
  const notes = m.unclear.map((words) => `Not understood: “${words}”. Check the form.`);
  let scheduleType = m.scheduleType;
  if (!scheduleType) {
    scheduleType = 'daily';
    notes.push('No schedule was understood: Every Day is filled in. Change it if you like.');
  }
  let weekday = scheduleType === 'weekly' ? m.weekday : null;
  if (scheduleType === 'weekly' && !weekday) {
    weekday = 'Monday';
    notes.push('No weekday was said: Monday is filled in. Change it if you like.');
  }
  if (!m.time) notes.push('No time was said: choose one in the form.');
  const filters: TimerFilters = { ...NO_FILTERS, attendance: m.attendance, exclude: m.exclude.map((w) => w.trim()).filter(Boolean) };
  if (m.window_next_days) filters.window = { next_days: m.window_next_days };
  else if (m.window_from && m.window_to && m.window_from <= m.window_to) filters.window = { from: m.window_from, to: m.window_to };
  if (m.place) {
    if (findPlace(m.place)) filters.place = { name: m.place, radius_km: m.radius_km ?? DEFAULT_RADIUS_KM };
    else notes.push(`We do not know the place “${m.place}”, so no place filter is set.`);
    if (findPlace(m.place) && !m.radius_km)
      notes.push(`No distance was said: events within ${DEFAULT_RADIUS_KM} km of ${m.place} are kept. Change the radius if you like.`);
  }
  const timer: DescribedTimer = { scheduleType, time: m.time, weekday, ques: m.question.trim(), web: m.website?.trim() ?? '', filters };
  return { timer, notes, source: 'model' };
}
