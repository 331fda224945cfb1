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
  /** Whether the outcome says how GEMINI_MODEL fares (/readyz); false for a call on another configured model. */
  { health = true }: { health?: boolean } = {},
): Promise<T> {
  const sent = await thinkingFor(gemini, settings);
  const note = (err: unknown | null) => {
    if (health) noteOutcome(gemini, settings.model, err);
  };
  try {
    try {
      const result = await request(sent.thinking ? { thinkingConfig: sent.thinking } : {});
      note(null);
      return result;
    } catch (err) {
      if (!sent.thinking || !isThinkingRefusal(err)) throw err;
      noteThinkingRefused(gemini, settings, sent, apiErrorBody(err)?.message ?? '');
      const result = await request({});
      note(null);
      return result;
    }
  } catch (err) {
    note(err);
    throw err;
  }
}
