import type { GenerateContentResponse, GoogleGenAI, ServiceTier } from '@google/genai';
import type { GeminiThinking } from '../config';
import { blockedFailure, emptyAnswer, geminiFailure } from './errors';
import type { ServiceTierName } from './prices';
import { withServiceTier } from './service-tier';
import { withThinking } from './thinking-call';
import { SYSTEM_INSTRUCTION } from './system-instruction';
import { type GeminiUsage, UsageReader } from './usage';

export interface Source {
  title: string;
  uri: string;
  /**
   * The answer's text segments Google says this source supports (groundingSupports): which events it cites,
   * for checking them against it. Absent when none named it.
   */
  segments?: string[];
}

/**
 * 'streamed': the answer arrives in pieces as the model writes them (someone is reading). 'whole': one reply
 * with all of it, for a caller nobody watches (a timer run): the same answer for a fraction of the client's
 * CPU, which parses one response instead of one per piece.
 */
export type AnswerDelivery = 'streamed' | 'whole';

export interface AnswerOptions {
  model: string;
  delivery: AnswerDelivery;
  /** `GEMINI_THINKING`; auto (the table in thinking.ts) when absent. */
  thinking?: GeminiThinking;
  prompt: string;
  /** Google Search grounding: on when there is no website to answer from. */
  grounding: boolean;
  /** 'flex' for a caller nobody watches (half price, answered within minutes); standard when Flex refuses. */
  tier?: ServiceTierName;
  /**
   * Asks for JSON following this schema (structured output), whole only: the reply's text is returned as
   * `answer` for the caller to read, and nothing reaches `onText` (the caller delivers what the JSON says).
   */
  responseJsonSchema?: object;
  signal?: AbortSignal;
  /** Called with each piece of answer text as soon as it arrives (a whole answer: once); awaited (back-pressure). */
  onText: (text: string) => void | Promise<void>;
}

export interface AnswerOutcome {
  answer: string;
  usage: GeminiUsage;
  /** The model that answered, as the reply names it (an alias's current target); the asked name otherwise. */
  answeredBy: string;
  /** The tier that answered (what the call is priced at). */
  tier: ServiceTierName;
  /**
   * Google's Search Suggestions for a grounded answer (groundingMetadata.searchEntryPoint.renderedContent):
   * HTML that Google's terms require to be shown with the answer; null when the model did not search.
   */
  searchSuggestions: string | null;
  sources: Source[];
}

function textOf(chunk: GenerateContentResponse): string {
  const parts = chunk.candidates?.[0]?.content?.parts ?? [];
  // Thought parts are the model's reasoning, not the answer.
  return parts.map((p) => (p.thought ? '' : (p.text ?? ''))).join('');
}

/** The grounding sources as plain lines for the end of the answer (the Response area shows no Markdown). */
export function sourcesBlock(sources: Source[]): string {
  if (sources.length === 0) return '';
  return `\n\nSources:\n${sources.map((s) => (s.title && s.title !== s.uri ? `${s.title}: ${s.uri}` : s.uri)).join('\n')}\n`;
}

/**
 * Asks Gemini for one answer and hands its text to `onText`, in pieces or whole (`delivery`). Throws
 * SearchError; whether text was already delivered is the caller's to know (it saw `onText`).
 */
export async function askGemini(gemini: GoogleGenAI, options: AnswerOptions): Promise<AnswerOutcome> {
  const { model, delivery, thinking = 'auto', prompt, grounding, signal, responseJsonSchema } = options;
  const onText = responseJsonSchema ? () => {} : options.onText;
  let tier: ServiceTierName = 'standard';
  let searchSuggestions: string | null = null;
  let answer = '';
  const usage = new UsageReader();
  let finishReason: string | undefined;
  let blockReason: string | undefined;
  const sources = new Map<string, Source>();
  try {
    // The model thinks as little as it accepts (thinking.ts), whichever the delivery: an ask's user watches the
    // answer arrive, and a timer run gets the answer the same question gets when asked.
    const pieces = await withThinking(gemini, { model, thinking }, async (thinkingConfig) => {
      const request = (tierConfig: { serviceTier?: ServiceTier }) => ({
        model,
        contents: [{ role: 'user', parts: [{ text: prompt }] }],
        config: {
          systemInstruction: SYSTEM_INSTRUCTION,
          ...thinkingConfig,
          ...tierConfig,
          ...(grounding ? { tools: [{ googleSearch: {} }] } : {}),
          ...(responseJsonSchema ? { responseMimeType: 'application/json', responseJsonSchema } : {}),
          abortSignal: signal,
        },
      });
      if (delivery === 'streamed' && !responseJsonSchema) return gemini.models.generateContentStream(request({}));
      // A whole answer is read exactly as a stream of one piece.
      const whole = await withServiceTier(gemini, model, options.tier ?? 'standard', (t) => gemini.models.generateContent(request(t)));
      tier = whole.tier;
      return [whole.result];
    });
    for await (const chunk of pieces) {
      blockReason ??= chunk.promptFeedback?.blockReason;
      const candidate = chunk.candidates?.[0];
      if (candidate?.finishReason) finishReason = candidate.finishReason;
      searchSuggestions = candidate?.groundingMetadata?.searchEntryPoint?.renderedContent ?? searchSuggestions;
      const chunks = candidate?.groundingMetadata?.groundingChunks ?? [];
      for (const g of chunks) {
        if (g.web?.uri && !sources.has(g.web.uri)) sources.set(g.web.uri, { uri: g.web.uri, title: g.web.title ?? '' });
      }
      // A support's chunk indices point into the same message's chunk list.
      for (const support of candidate?.groundingMetadata?.groundingSupports ?? []) {
        const text = support.segment?.text;
        if (!text) continue;
        for (const i of support.groundingChunkIndices ?? []) {
          const source = sources.get(chunks[i]?.web?.uri ?? '');
          if (source) source.segments = [...(source.segments ?? []), text];
        }
      }
      usage.read(chunk);
      const text = textOf(chunk);
      if (text) {
        answer += text;
        await onText(text);
      }
    }
  } catch (err) {
    throw geminiFailure(err, signal);
  }
  const blocked = blockedFailure(blockReason, finishReason);
  if (blocked) throw blocked;
  if (!answer.trim()) throw emptyAnswer();
  const tail = responseJsonSchema ? '' : sourcesBlock([...sources.values()]);
  if (tail) {
    answer += tail;
    await onText(tail);
  }
  return { answer, usage: usage.usage(), answeredBy: usage.modelVersion ?? model, tier, searchSuggestions, sources: [...sources.values()] };
}
