import { ApiError, type GoogleGenAI } from '@google/genai';
import { isThinkingRefusal } from './errors';
import { type GeminiSettings, logOnce, modelState } from './model';

/**
 * Runs the extraction call (an answer → its events) on `GEMINI_EXTRACTION_MODEL` (docs/decisions/gemini-and-cost.md): a cheaper model
 * than the answer's, since the call only copies what the answer already says into JSON. When that model is not
 * one this key can use (404, or a 400 that is not about thinking: retired, or no JSON output), the call is asked
 * once more on the answer's model, remembered for the process and told to the operator once, so a retired
 * model costs a log line, never a search's events. A 400 that names no model (a request this one answer made
 * invalid) is asked again on the answer's model for this call only: one odd answer does not move every later
 * extraction to the dearer model. `request` gets the settings to call with and whether its outcome speaks for
 * GEMINI_MODEL's health.
 */
export async function withExtractionModel<T>(
  gemini: GoogleGenAI,
  answer: GeminiSettings,
  extractionModel: string | null | undefined,
  request: (settings: GeminiSettings, health: { health: boolean }) => Promise<T>,
): Promise<T> {
  const refused = modelState(gemini).extractionModelRefused;
  if (!extractionModel || extractionModel === answer.model || refused.has(extractionModel)) {
    return request(answer, { health: true });
  }
  try {
    // GEMINI_THINKING is chosen for GEMINI_MODEL; this model gets its own family's settings.
    return await request({ model: extractionModel, thinking: 'auto' }, { health: false });
  } catch (err) {
    if (!isModelUnavailable(err)) throw err;
    if (!isAboutTheModel(err, extractionModel)) return request(answer, { health: true });
    refused.add(extractionModel);
    logOnce(gemini, `extraction-model-refused:${extractionModel}`, (log) =>
      log.warn(
        { model: extractionModel, status: (err as ApiError).status, gemini: (err as Error).message },
        `Gemini refused GEMINI_EXTRACTION_MODEL=${extractionModel}; events are now extracted with the answer's model, which costs more. Set GEMINI_EXTRACTION_MODEL to a model this key can use (GET /v1beta/models), or to "answer".`,
      ),
    );
    return request(answer, { health: true });
  }
}

// A model the key cannot call at all, or one that refuses the request's shape; not a passing failure.
const isModelUnavailable = (err: unknown) =>
  err instanceof ApiError && (err.status === 404 || (err.status === 400 && !isThinkingRefusal(err)));

// Google names the model when the model itself is the trouble: not found (404), or "… for models/NAME" when it
// does not take JSON output or the request's settings.
const isAboutTheModel = (err: unknown, model: string) => err instanceof ApiError && (err.status === 404 || err.message.includes(model));
