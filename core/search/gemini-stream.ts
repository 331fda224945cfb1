import type { GenerateContentResponse, GoogleGenAI } from '@google/genai';
import type { GeminiThinking } from '../config';
import { blockedFailure, emptyAnswer, geminiFailure } from './gemini-errors';
import { withThinking } from './gemini-thinking-call';
import { SYSTEM_INSTRUCTION } from './prompt';

export interface Source {
  title: string;
  uri: string;
}

export interface StreamOptions {
  model: string;
  /** `GEMINI_THINKING`; auto (the table in thinking.ts) when absent. */
  thinking?: GeminiThinking;
  prompt: string;
  /** Google Search grounding: on when there is no website to answer from. */
  grounding: boolean;
  signal?: AbortSignal;
  /** Called with each piece of answer text as soon as it arrives; awaited (back-pressure). */
  onText: (text: string) => void | Promise<void>;
}

export interface StreamOutcome {
  answer: string;
  promptTokens: number | null;
  outputTokens: number | null;
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
 * Streams one Gemini answer through `onText`. Throws SearchError; whether text was already delivered is
 * the caller's to know (it saw `onText`).
 */
export async function streamAnswer(gemini: GoogleGenAI, options: StreamOptions): Promise<StreamOutcome> {
  const { model, thinking = 'auto', prompt, grounding, signal, onText } = options;
  let answer = '';
  let promptTokens: number | null = null;
  let outputTokens: number | null = null;
  let finishReason: string | undefined;
  let blockReason: string | undefined;
  const sources = new Map<string, Source>();
  try {
    // An interactive answer: the user watches it arrive, so the model thinks as little as it accepts.
    const stream = await withThinking(gemini, { model, thinking }, (thinkingConfig) =>
      gemini.models.generateContentStream({
        model,
        contents: [{ role: 'user', parts: [{ text: prompt }] }],
        config: {
          systemInstruction: SYSTEM_INSTRUCTION,
          ...thinkingConfig,
          ...(grounding ? { tools: [{ googleSearch: {} }] } : {}),
          abortSignal: signal,
        },
      }),
    );
    for await (const chunk of stream) {
      blockReason ??= chunk.promptFeedback?.blockReason;
      const candidate = chunk.candidates?.[0];
      if (candidate?.finishReason) finishReason = candidate.finishReason;
      for (const g of candidate?.groundingMetadata?.groundingChunks ?? []) {
        if (g.web?.uri && !sources.has(g.web.uri)) sources.set(g.web.uri, { uri: g.web.uri, title: g.web.title ?? '' });
      }
      if (chunk.usageMetadata) {
        promptTokens = chunk.usageMetadata.promptTokenCount ?? promptTokens;
        outputTokens = chunk.usageMetadata.candidatesTokenCount ?? outputTokens;
      }
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
  const tail = sourcesBlock([...sources.values()]);
  if (tail) {
    answer += tail;
    await onText(tail);
  }
  return { answer, promptTokens, outputTokens, sources: [...sources.values()] };
}
