import { ApiError, type GoogleGenAI, type Model } from '@google/genai';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { configurationProblem } from './errors';
import { describeThinking, familyOfModelInfo, familyOfName, overrideOf, type ThinkingFamily } from './thinking';

export type GeminiSettings = Pick<Config['gemini'], 'model' | 'thinking'>;

/** What the one start-up check (models.get) and later calls found out about the configured model. */
export type ModelHealth =
  | { state: 'unchecked' }
  | { state: 'usable'; model: string }
  | { state: 'unusable'; model: string; problem: string };

/**
 * What this process has learnt about its Gemini models: one per client (one client per process), so it is
 * shared by every request and forgotten on restart, when the configuration may have changed.
 */
interface ModelState {
  logger: Logger | null;
  /** models.get answers (or failures) per model name; a promise, so concurrent requests ask once. */
  info: Map<string, Promise<Model | null>>;
  /** Models that refused our thinking settings: from then on they get none. */
  refused: Set<string>;
  /** Models that refused the Flex tier: from then on they are asked on the standard tier only. */
  flexRefused: Set<string>;
  /** Models that refused structured output with Google Search: from then on a search asks them in two calls. */
  structuredSearchRefused: Set<string>;
  /** Extraction models this key cannot use: from then on the extraction asks the answer's model. */
  extractionModelRefused: Set<string>;
  /** Log lines already written once (refusals, configuration problems). */
  logged: Set<string>;
  health: ModelHealth;
}

const states = new WeakMap<GoogleGenAI, ModelState>();

export function modelState(gemini: GoogleGenAI): ModelState {
  let state = states.get(gemini);
  if (!state) {
    state = {
      logger: null,
      info: new Map(),
      refused: new Set(),
      flexRefused: new Set(),
      structuredSearchRefused: new Set(),
      extractionModelRefused: new Set(),
      logged: new Set(),
      health: { state: 'unchecked' },
    };
    states.set(gemini, state);
  }
  return state;
}

/** Where this client's operator warnings go (createGemini sets it; tests may point it elsewhere). */
export function setGeminiLogger(gemini: GoogleGenAI, logger: Logger): void {
  modelState(gemini).logger = logger;
}

/** Writes a log line once per process for `key`: a problem hit by every request must not flood the log. */
export function logOnce(gemini: GoogleGenAI, key: string, write: (logger: Logger) => void): void {
  const state = modelState(gemini);
  if (state.logged.has(key)) return;
  state.logged.add(key);
  if (state.logger) write(state.logger);
}

// A model lookup is metadata, answered in well under a second: a search never waits longer than this for it.
const MODEL_LOOKUP_TIMEOUT_MS = 5_000;
const lookup = (gemini: GoogleGenAI, model: string) =>
  gemini.models.get({ model, config: { abortSignal: AbortSignal.timeout(MODEL_LOOKUP_TIMEOUT_MS) } });

/** models.get for a name, asked once per process; null when it failed (a 404 included) or took too long. */
function modelInfo(gemini: GoogleGenAI, model: string): Promise<Model | null> {
  const state = modelState(gemini);
  let info = state.info.get(model);
  if (!info) {
    info = lookup(gemini, model).catch((err: unknown) => {
      // A missing model stays missing; any other failure may pass, so the next request asks again.
      if (!(err instanceof ApiError && err.status === 404)) state.info.delete(model);
      return null;
    });
    state.info.set(model, info);
  }
  return info;
}

/** The thinking settings a call to `settings.model` sends now, and where they come from. */
export async function thinkingFor(gemini: GoogleGenAI, settings: GeminiSettings): Promise<ThinkingFamily> {
  if (modelState(gemini).refused.has(settings.model)) return { family: 'refused before', thinking: null };
  const forced = overrideOf(settings.thinking);
  if (forced) return forced;
  const known = familyOfName(settings.model);
  if (known) return known;
  const info = await modelInfo(gemini, settings.model);
  return info ? familyOfModelInfo(settings.model, info) : { family: 'unknown', thinking: null };
}

/** Remembers that `model` refused our thinking settings, and says so once with what the operator can change. */
export function noteThinkingRefused(gemini: GoogleGenAI, settings: GeminiSettings, sent: ThinkingFamily, said: string): void {
  modelState(gemini).refused.add(settings.model);
  logOnce(gemini, `thinking-refused:${settings.model}`, (log) =>
    log.warn(
      { model: settings.model, sent: describeThinking(sent.thinking), family: sent.family, gemini: said },
      settings.thinking === 'auto'
        ? `Gemini model ${settings.model} refused the thinking settings chosen for it (${sent.family}); searches now run without thinking settings, which may be slower. Set GEMINI_THINKING to a level this model accepts (or off), and update its row in core/gemini/thinking.ts.`
        : `Gemini model ${settings.model} refused GEMINI_THINKING=${settings.thinking}; searches now run without thinking settings. Set GEMINI_THINKING=auto or a level this model accepts.`,
    ),
  );
}

/** Records a call's outcome: a configuration problem is logged once and reported by /readyz until a call works. */
export function noteOutcome(gemini: GoogleGenAI, model: string, err: unknown | null): void {
  const state = modelState(gemini);
  if (err === null) {
    state.health = { state: 'usable', model };
    return;
  }
  const found = configurationProblem(err, model);
  if (!found) return;
  state.health = { state: 'unusable', model, problem: found.problem };
  logOnce(gemini, `problem:${found.about}`, (log) => log.error({ model }, found.problem));
}

export function modelHealth(gemini: GoogleGenAI): ModelHealth {
  return modelState(gemini).health;
}

/**
 * The one start-up check: models.get on the configured model (no tokens spent). A missing model or a refused
 * key is logged as an operator error and reported by /readyz; a network failure leaves the state unchecked.
 * Never throws: a process with a bad model still serves everything else.
 */
export async function checkGeminiModel(gemini: GoogleGenAI, settings: GeminiSettings): Promise<ModelHealth> {
  const state = modelState(gemini);
  try {
    const info = lookup(gemini, settings.model);
    // The answer also serves the thinking settings of an alias, so the first search does not ask again.
    state.info.set(
      settings.model,
      info.catch(() => null),
    );
    await info;
    noteOutcome(gemini, settings.model, null);
    const thinking = await thinkingFor(gemini, settings);
    state.logger?.info(
      { model: settings.model, family: thinking.family, thinking: describeThinking(thinking.thinking) },
      'Gemini model checked',
    );
  } catch (err) {
    state.info.delete(settings.model);
    noteOutcome(gemini, settings.model, err);
    if (state.health.state !== 'unusable') {
      state.logger?.warn({ model: settings.model, err: (err as Error).message }, 'could not check the Gemini model at start');
    }
  }
  return state.health;
}
