import { ApiError, type GoogleGenAI } from '@google/genai';
import { logOnce, modelState } from './model';
import { modelNameOf } from './thinking';

/**
 * Which model families answer a structured-output request (responseMimeType application/json with a JSON
 * schema) that also carries the Google Search tool, so that a search can get its answer and its events in one
 * call. Gemini 3 does (its developer guide, ai.google.dev/gemini-api/docs/gemini-3, allows structured outputs
 * together with built-in tools such as Google Search; read 2026-11-25); Gemini 2.5 refuses with 400
 * INVALID_ARGUMENT "Tool use with a response mime type: 'application/json' is unsupported" (as reported for
 * gemini-2.5-flash in snailyp/gemini-balance#238 and #264). The aliases have pointed at 3.x models since 2026-09.
 * A name the table does not know is tried: a refusal costs one request and is remembered for the model.
 */
const ALIASES = new Set(['gemini-flash-latest', 'gemini-flash-lite-latest', 'gemini-pro-latest']);

export function structuredSearchOffered(gemini: GoogleGenAI, model: string): boolean {
  if (modelState(gemini).structuredSearchRefused.has(model)) return false;
  const bare = model
    .trim()
    .replace(/^models\//, '')
    .toLowerCase();
  if (ALIASES.has(bare)) return true;
  const name = modelNameOf(model);
  return name === null || name.version >= 3;
}

/** Google's 400 for structured output with tools (the wording of the Gemini API and of Vertex AI). */
export function isStructuredSearchRefusal(err: unknown): boolean {
  return (
    err instanceof ApiError &&
    err.status === 400 &&
    /tool use with a response mime type|controlled generation is not supported with google_search/i.test(err.message)
  );
}

/** Remembers the refusal for this process (a moved alias, a table row gone wrong) and tells the operator once. */
export function noteStructuredSearchRefused(gemini: GoogleGenAI, model: string): void {
  modelState(gemini).structuredSearchRefused.add(model);
  logOnce(gemini, `structured-search-refused:${model}`, (log) =>
    log.warn(
      { model },
      `Gemini model ${model} refused structured output with Google Search; timer runs now ask it in two calls (the answer, then its events). Update its row in core/gemini/structured-search.ts.`,
    ),
  );
}
