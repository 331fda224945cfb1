import type { GoogleGenAI, ThinkingConfig } from '@google/genai';
import { apiErrorBody, isThinkingRefusal } from './errors';
import { type GeminiSettings, noteOutcome, noteThinkingRefused, thinkingFor } from './model';

/**
 * Runs one Gemini request with the model's thinking settings (core/gemini/thinking.ts), for the streamed answer
 * and any other call (e.g. structured extraction), so they all send the same. `request` gets the config to
 * spread into its `config` (`{thinkingConfig}` or `{}`).
 *
 * A 400 INVALID_ARGUMENT about the thinking settings is retried once without them and remembered for the model
 * (logged once per process), so a model that changes under its name, or an alias that moves, costs one refused
 * request instead of every search. The refusal comes before any answer text, so nothing reached the user yet.
 * Configuration problems (model not found, key refused) are logged for the operator and reported by /readyz.
 */
export async function withThinking<T>(
  gemini: GoogleGenAI,
  settings: GeminiSettings,
  request: (config: { thinkingConfig?: ThinkingConfig }) => Promise<T>,
): Promise<T> {
  const sent = await thinkingFor(gemini, settings);
  try {
    try {
      const result = await request(sent.thinking ? { thinkingConfig: sent.thinking } : {});
      noteOutcome(gemini, settings.model, null);
      return result;
    } catch (err) {
      if (!sent.thinking || !isThinkingRefusal(err)) throw err;
      noteThinkingRefused(gemini, settings, sent, apiErrorBody(err)?.message ?? '');
      const result = await request({});
      noteOutcome(gemini, settings.model, null);
      return result;
    }
  } catch (err) {
    noteOutcome(gemini, settings.model, err);
    throw err;
  }
}
