/**
 * The models the Gemini stand-in knows, described the way the real `GET /v1beta/models/{model}` describes them
 * (fields and values as Google's models.list returned them in 2026), and what each refuses with the real 400
 * messages. Sources for each rule are in core/gemini/thinking.ts and docs/decisions/gemini-and-cost.md.
 */

export type Level = 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH';
const ALL_LEVELS: Level[] = ['MINIMAL', 'LOW', 'MEDIUM', 'HIGH'];

export interface StandinModel {
  name: string;
  version: string;
  displayName: string;
  description: string;
  /** 2.5 takes a budget only; 3.x takes these levels (and a budget for backward compatibility). */
  levels: Level[] | null;
  /** The message refusing `thinkingBudget: 0`, or null when a zero budget turns thinking off. */
  zeroBudgetRefusal: string | null;
  /** 2.5 refuses `responseMimeType: application/json` together with a tool such as Google Search. */
  structuredWithTools: boolean;
  /** Google's Flex tier (`serviceTier: flex`, half price) is offered for Gemini 3.x models, not for 2.5. */
  flex: boolean;
  /** Runs one search query when the prompt asks for as few as it can (gemini-usage.ts searchQueriesFor). */
  heedsFewSearches: boolean;
}

const PRO_ZERO = 'Budget 0 is invalid. This model only works in thinking mode.';
// googleapis/python-genai#2936 (3.5 Flash-Lite). Reports disagree on other 3.x Flash models; the stand-in
// refuses a zero budget on every 3.x model so nothing of ours depends on it (docs/decisions/gemini-and-cost.md).
const FLASH3_ZERO = 'The model does not support setting thinking_budget to 0';

const model = (name: string, version: string, displayName: string, description: string, rules: Partial<StandinModel>): StandinModel => ({
  name,
  version,
  displayName,
  description,
  levels: null,
  zeroBudgetRefusal: null,
  structuredWithTools: true,
  flex: true,
  heedsFewSearches: true,
  ...rules,
});

const gemini25 = { levels: null, structuredWithTools: false, flex: false };
const flash3 = { levels: ALL_LEVELS, zeroBudgetRefusal: FLASH3_ZERO };
const flash37 = { levels: ['LOW', 'MEDIUM', 'HIGH'] as Level[], zeroBudgetRefusal: FLASH3_ZERO };
const pro3 = { levels: ['LOW', 'MEDIUM', 'HIGH'] as Level[], zeroBudgetRefusal: PRO_ZERO };

const MODELS: StandinModel[] = [
  model(
    'gemini-2.5-flash',
    '001',
    'Gemini 2.5 Flash',
    'Stable version of Gemini 2.5 Flash, our mid-size multimodal model that supports up to 1 million tokens, released in June of 2025.',
    gemini25,
  ),
  model(
    'gemini-2.5-flash-lite',
    '001',
    'Gemini 2.5 Flash-Lite',
    'Stable version of Gemini 2.5 Flash-Lite, released in July of 2025',
    gemini25,
  ),
  model('gemini-2.5-pro', '2.5', 'Gemini 2.5 Pro', 'Stable release (June 17th, 2025) of Gemini 2.5 Pro', {
    ...gemini25,
    zeroBudgetRefusal: PRO_ZERO,
  }),
  model('gemini-3-flash-preview', '3-flash-preview-12-2025', 'Gemini 3 Flash Preview', 'Gemini 3 Flash Preview', flash3),
  model('gemini-3.1-pro-preview', '3.1-pro-preview-01-2026', 'Gemini 3.1 Pro Preview', 'Gemini 3.1 Pro Preview', pro3),
  model('gemini-3.1-flash-lite', '3.1-flash-lite-05-2026', 'Gemini 3.1 Flash Lite', 'Gemini 3.1 Flash Lite', flash3),
  model('gemini-3.5-flash', '3.5-flash-05-2026', 'Gemini 3.5 Flash', 'Gemini 3.5 Flash', flash3),
  model('gemini-3.5-flash-lite', '3.5-flash-lite-07-2026', 'Gemini 3.5 Flash Lite', 'Gemini 3.5 Flash Lite', flash3),
  model('gemini-3.6-flash', '3.6-flash-07-2026', 'Gemini 3.6 Flash', 'Gemini 3.6 Flash', flash3),
  model('gemini-3.7-flash', '3.7-flash-08-2026', 'Gemini 3.7 Flash', 'Gemini 3.7 Flash', flash37),
  // Its version really reads "3.0".
  model('gemini-3.8-flash', '3.0', 'Gemini 3.8 Flash', 'Gemini 3.8 Flash', flash37),
];

/** Aliases answer models.get as themselves (no target version) and behave like their current target. */
const ALIASES: { name: string; displayName: string; description: string; target: string }[] = [
  {
    name: 'gemini-flash-latest',
    displayName: 'Gemini Flash Latest',
    description: 'Latest release of Gemini Flash',
    target: 'gemini-3.8-flash',
  },
  {
    name: 'gemini-flash-lite-latest',
    displayName: 'Gemini Flash-Lite Latest',
    description: 'Latest release of Gemini Flash-Lite',
    target: 'gemini-3.5-flash-lite',
  },
  {
    name: 'gemini-pro-latest',
    displayName: 'Gemini Pro Latest',
    description: 'Latest release of Gemini Pro',
    target: 'gemini-3.1-pro-preview',
  },
];

/** The model list, with per-test changes (a model that changed its rules under the same name). */
export function createModelRegistry() {
  const changes = new Map<string, Partial<StandinModel>>();

  function find(name: string): StandinModel | null {
    const alias = ALIASES.find((a) => a.name === name);
    const base = MODELS.find((m) => m.name === (alias?.target ?? name));
    if (!base) return null;
    const rules = { ...base, ...changes.get(base.name), ...(alias ? changes.get(alias.name) : {}) };
    return alias
      ? { ...rules, name: alias.name, version: alias.displayName, displayName: alias.displayName, description: alias.description }
      : rules;
  }

  /** The model an alias stands for now (what a reply's modelVersion names); a model's own name otherwise. */
  function answeringModel(name: string): string {
    return ALIASES.find((a) => a.name === name)?.target ?? name;
  }

  /** The JSON of `GET /v1beta/models/{name}`, as the real API answers it. */
  function describe(name: string) {
    const m = find(name);
    if (!m) return null;
    return {
      name: `models/${m.name}`,
      version: m.version,
      displayName: m.displayName,
      description: m.description,
      inputTokenLimit: 1048576,
      outputTokenLimit: 65536,
      supportedGenerationMethods: ['generateContent', 'countTokens', 'createCachedContent', 'batchGenerateContent'],
      temperature: 1,
      topP: 0.95,
      topK: 64,
      maxTemperature: 2,
      thinking: true,
    };
  }

  return {
    find,
    answeringModel,
    describe,
    list: () => [...MODELS.map((m) => m.name), ...ALIASES.map((a) => a.name)].map(describe),
    /** Makes a model (or an alias) refuse differently from now on, as when Google changes a model under its name. */
    change(
      name: string,
      rules: Partial<Pick<StandinModel, 'levels' | 'zeroBudgetRefusal' | 'structuredWithTools' | 'flex' | 'heedsFewSearches'>>,
    ) {
      changes.set(name, { ...changes.get(name), ...rules });
    },
    reset() {
      changes.clear();
    },
  };
}

export type ModelRegistry = ReturnType<typeof createModelRegistry>;

interface RequestBody {
  generationConfig?: Record<string, unknown>;
  tools?: unknown[];
  serviceTier?: unknown;
}

export interface Refusal {
  status: 400;
  body: { error: { code: 400; message: string; status: 'INVALID_ARGUMENT'; details?: unknown[] } };
}

const refusal = (message: string, details?: unknown[]): Refusal => ({
  status: 400,
  body: { error: { code: 400, message, status: 'INVALID_ARGUMENT', ...(details ? { details } : {}) } },
});

/** What the real API answers with 400 INVALID_ARGUMENT for this body on this model; null when it accepts it. */
export function refusalFor(m: StandinModel, body: RequestBody): Refusal | null {
  const config = body.generationConfig ?? {};
  const thinking = (config.thinkingConfig ?? {}) as { thinkingBudget?: unknown; thinkingLevel?: unknown };
  if (thinking.thinkingBudget !== undefined && thinking.thinkingLevel !== undefined) {
    return refusal('You can only set only one of thinking budget and thinking level.');
  }
  if (thinking.thinkingLevel !== undefined) {
    const level = String(thinking.thinkingLevel).toUpperCase();
    if (!(ALL_LEVELS as string[]).includes(level) && level !== 'THINKING_LEVEL_UNSPECIFIED') {
      const message = `Invalid value at 'generation_config.thinking_config.thinking_level' (type.googleapis.com/google.ai.generativelanguage.v1beta.ThinkingConfig.ThinkingLevel), "${String(thinking.thinkingLevel)}"`;
      return refusal(message, [
        {
          '@type': 'type.googleapis.com/google.rpc.BadRequest',
          fieldViolations: [{ field: 'generation_config.thinking_config.thinking_level', description: message }],
        },
      ]);
    }
    if (!m.levels) return refusal('Thinking level is not supported for this model.');
    if (!(m.levels as string[]).includes(level) && level !== 'THINKING_LEVEL_UNSPECIFIED') {
      return refusal(`Thinking level ${level} is not supported for this model. Please retry with other thinking level.`);
    }
  }
  if (thinking.thinkingBudget === 0 && m.zeroBudgetRefusal) return refusal(m.zeroBudgetRefusal);
  const tools = body.tools ?? [];
  if (!m.structuredWithTools && config.responseMimeType === 'application/json' && tools.length > 0) {
    return refusal("Tool use with a response mime type: 'application/json' is unsupported");
  }
  if (String(body.serviceTier ?? '').toLowerCase() === 'flex' && !m.flex) {
    return refusal(`Service tier flex is not supported for model ${m.name}.`);
  }
  return null;
}
