import { type Model, type ThinkingConfig, ThinkingLevel } from '@google/genai';
import type { GeminiThinking } from '../config';

/**
 * Which thinking settings each Gemini model family takes, and why. Our answers are interactive (the user
 * watches them arrive), so every family gets the least thinking it accepts. Checked 2026-11-23 against the
 * sources named on each row; the Gemini stand-in (dev/standins/gemini-models.ts) refuses what they say the
 * real API refuses. A row that turns out wrong costs one refused request: the caller retries without thinking
 * settings and remembers that for the model (see gemini-thinking-call.ts).
 */

export type Level = 'minimal' | 'low' | 'medium' | 'high';

export interface ThinkingFamily {
  /** A short name for logs and the README, e.g. '3.x Flash (3.7 and later)'. */
  family: string;
  /** What we send; null: no thinking config at all (the model's own default). */
  thinking: ThinkingConfig | null;
}

interface Row extends ThinkingFamily {
  matches: (name: ModelName) => boolean;
}

export interface ModelName {
  version: number;
  tier: 'flash' | 'flash-lite' | 'pro';
}

const level = (l: Level): ThinkingConfig => ({ thinkingLevel: LEVELS[l] });
const LEVELS: Record<Level, ThinkingLevel> = {
  minimal: ThinkingLevel.MINIMAL,
  low: ThinkingLevel.LOW,
  medium: ThinkingLevel.MEDIUM,
  high: ThinkingLevel.HIGH,
};

const TABLE: Row[] = [
  {
    // https://ai.google.dev/gemini-api/docs/thinking (budget table: 2.5 Flash and Flash-Lite, "0" turns thinking off);
    // levels are refused on 2.5: "Thinking level is not supported for this model." (RooCodeInc/Roo-Code#10700).
    family: '2.5 Flash / Flash-Lite',
    matches: (m) => m.version === 2.5 && m.tier !== 'pro',
    thinking: { thinkingBudget: 0 },
  },
  {
    // "Thinking can't be turned off for Gemini 2.5 Pro" (same page); budget 0 is refused with "Budget 0 is
    // invalid. This model only works in thinking mode." (vercel/ai#8027). Its own default (dynamic) is left.
    family: '2.5 Pro',
    matches: (m) => m.version === 2.5 && m.tier === 'pro',
    thinking: null,
  },
  {
    // Every 3.x Flash-Lite takes minimal: 3.1 Flash-Lite all four levels (maximhq/bifrost#7287, citing
    // https://ai.google.dev/gemini-api/docs/generate-content/thinking#thinking-levels), 3.5 Flash-Lite defaults
    // to minimal (https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/gemini/3-5-flash-lite).
    // It refuses a zero budget: googleapis/python-genai#2936.
    family: '3.x Flash-Lite',
    matches: (m) => m.version >= 3 && m.version < 4 && m.tier === 'flash-lite',
    thinking: level('minimal'),
  },
  {
    // 3 Flash, 3.5 Flash and 3.6 Flash take minimal, low, medium, high
    // (https://ai.google.dev/gemini-api/docs/gemini-3 "Gemini 3 Flash thinking levels"; simstudioai/sim#5812 for
    // 3.6; https://doc.starrise.tech/en/guides/model-api/google/gemini-3.5-flash for 3.5).
    family: '3.x Flash (before 3.7)',
    matches: (m) => m.version >= 3 && m.version < 3.7 && m.tier === 'flash',
    thinking: level('minimal'),
  },
  {
    // From 3.7 on, Flash refuses minimal: "Thinking level MINIMAL is not supported for this model. Please retry
    // with other thinking level." (earendil-works/pi#9455 for 3.8, can1357/oh-my-pi#10543 and
    // fishjar/kiss-translator#1048 for 3.7, citing the official thinking-levels table). Low is its lowest.
    family: '3.x Flash (3.7 and later)',
    matches: (m) => m.version >= 3.7 && m.version < 4 && m.tier === 'flash',
    thinking: level('low'),
  },
  {
    // 3 Pro takes low and high, 3.1 Pro low, medium and high; neither takes minimal and thinking cannot be off
    // (https://ai.google.dev/gemini-api/docs/gemini-3; https://docs.rs/adk-model/1.0.0/adk_model/gemini/enum.ThinkingLevel.html).
    family: '3.x Pro',
    matches: (m) => m.version >= 3 && m.version < 4 && m.tier === 'pro',
    thinking: level('low'),
  },
];

/**
 * Aliases move to the newest model of their line, and models.get does not say which: for
 * `models/gemini-flash-latest` it answers version "Gemini Flash Latest", no baseModelId (see
 * docs/decisions/gemini-and-cost.md). So an alias gets the lowest level that every 3.x model of
 * its line accepts; since 2026-09 `gemini-flash-latest` is gemini-3.8-flash (theJayTea/WritingTools#282).
 */
const ALIASES: Record<string, ThinkingFamily> = {
  'gemini-flash-latest': { family: 'alias of the newest Flash', thinking: level('low') },
  'gemini-flash-lite-latest': { family: 'alias of the newest Flash-Lite', thinking: level('minimal') },
  'gemini-pro-latest': { family: 'alias of the newest Pro', thinking: level('low') },
};

/** `gemini-3.5-flash`, `models/gemini-3.1-pro-preview`, `3.5-flash-05-2026` → version and tier; else null. */
function parseName(name: string): ModelName | null {
  const m = /^(?:models\/)?(?:gemini-)?(\d+(?:\.\d+)?)-(flash-lite|flash|pro)(?:-|$)/i.exec(name.trim());
  if (!m) return null;
  return { version: Number(m[1]), tier: m[2]!.toLowerCase() as ModelName['tier'] };
}

const bare = (name: string) =>
  name
    .trim()
    .replace(/^models\//, '')
    .toLowerCase();

/** A concrete model name's version and tier (see parseName); null for an alias or an unknown name. */
export const modelNameOf = (name: string): ModelName | null => parseName(bare(name));

/** The table's row for a model name (a concrete version such as gemini-3.5-flash), or null when it has none. */
export function familyOfName(name: string): ThinkingFamily | null {
  const parsed = parseName(bare(name));
  if (!parsed) return null;
  const row = TABLE.find((r) => r.matches(parsed));
  return row ? { family: row.family, thinking: row.thinking } : null;
}

/**
 * The settings for a name the table does not know, from what models.get said about it: a version or base model
 * that names a family, else the alias rule, else none (a model that does not think, or one we know nothing of).
 */
export function familyOfModelInfo(name: string, info: Model): ThinkingFamily {
  if (info.thinking === false) return { family: 'does not think', thinking: null };
  for (const candidate of [info.version, info.displayName?.replace(/^Gemini /i, '').replace(/ /g, '-')]) {
    const family = candidate ? familyOfName(candidate) : null;
    if (family) return family;
  }
  return ALIASES[bare(name)] ?? { family: 'unknown', thinking: null };
}

/** `GEMINI_THINKING` forced on every model: off sends none, a level sends that level. Null for auto. */
export function overrideOf(thinking: GeminiThinking): ThinkingFamily | null {
  if (thinking === 'auto') return null;
  if (thinking === 'off') return { family: 'GEMINI_THINKING=off', thinking: null };
  return { family: `GEMINI_THINKING=${thinking}`, thinking: level(thinking) };
}

/** A thinking config as the operator would write it in GEMINI_THINKING, for log lines. */
export function describeThinking(thinking: ThinkingConfig | null): string {
  if (!thinking) return 'none';
  if (thinking.thinkingLevel) return `thinkingLevel ${thinking.thinkingLevel.toLowerCase()}`;
  return `thinkingBudget ${thinking.thinkingBudget}`;
}
