import type { GenerateContentResponse, GoogleGenAI, ServiceTier } from '@google/genai';
import type { GeminiThinking } from '../config';
import type { SearchError } from '../search-error';
import { blockedFailure, cutBeforeAnswer, emptyAnswer, geminiFailure } from './errors';
import { ReplyRefused } from './fetch';
import type { ServiceTierName } from './prices';
import { withServiceTier } from './service-tier';
import { withThinking } from './thinking-call';
import { SYSTEM_INSTRUCTION } from './system-instruction';
import { type GeminiUsage, UsageReader } from './usage';

export interface Source {
  /** The page's title as the reply gives it (on the Gemini API often the site's domain). */
  title: string;
  /** Where the link goes: on Google's grounding a vertexaisearch redirect to the page, kept as Google gives it. */
  uri: string;
  /** The site's name (Vertex `domain`, else the link's own host when it is not Google's redirect); '' when unknown. */
  site: string;
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
  /** The reply stopped at the model's output limit (MAX_TOKENS): `answer` is a part answer, and says so. */
  cut: boolean;
}

/** Said at the end of an answer the model stopped at its output limit (docs/decisions/gemini-and-cost.md: such a search is not charged). */
export const CUT_NOTE =
  '\n\n(This answer was cut off: the AI service reached its length limit before finishing. It was not counted against your plan.)';

/**
 * The grounding metadata one reply may carry, over all its messages: a real answer names tens of sources and
 * supports; a reply past either is refused (its search fails, uncharged).
 */
export const GROUNDING_LIMITS = { chunks: 500, supports: 2_000 };

function textOf(chunk: GenerateContentResponse): string {
  const parts = chunk.candidates?.[0]?.content?.parts ?? [];
  // Thought parts are the model's reasoning, not the answer.
  return parts.map((p) => (p.thought ? '' : (p.text ?? ''))).join('');
}

/**
 * The grounding sources as plain lines for the end of the answer (the Response area shows no Markdown): each
 * by its title and site, then its link as Google gives it, with whitespace escaped so the line's link is whole.
 */
export function sourcesBlock(sources: Source[]): string {
  if (sources.length === 0) return '';
  return `\n\nSources:\n${sources.map(sourceLine).join('\n')}\n`;
}

function sourceLine(s: Source): string {
  const link = s.uri.replace(/\s/g, (c) => encodeURIComponent(c));
  const title = s.title === s.uri ? '' : s.title;
  const name = title && s.site && title.toLowerCase() !== s.site.toLowerCase() ? `${title} (${s.site})` : title || s.site;
  return name ? `${name}: ${link}` : link;
}

const GOOGLE_REDIRECT_HOST = 'vertexaisearch.cloud.google.com';

/** A grounding chunk's site name: Vertex's `domain`, else the link's host unless the link is Google's redirect. */
export function siteOf(web: { domain?: string; uri?: string }): string {
  if (web.domain) return web.domain;
  try {
    const url = new URL(web.uri ?? '');
    // A grounding redirect names Google, not the page: the chunk's title (its site) says more.
    if (url.hostname === GOOGLE_REDIRECT_HOST || url.pathname.startsWith('/grounding-api-redirect/')) return '';
    return url.hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/**
 * Asks Gemini for one answer and hands its text to `onText`, in pieces or whole (`delivery`). Throws
 * SearchError; whether text was already delivered is the caller's to know (it saw `onText`).
 */
export async function askGemini(gemini: GoogleGenAI, options: AnswerOptions): Promise<AnswerOutcome> {
  const { model, delivery, thinking = 'auto', prompt, grounding, responseJsonSchema } = options;
  // A reply left before its end (refused for what it carried) is not read on: its request is aborted.
  const left = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, left.signal]) : left.signal;
  const onText = responseJsonSchema ? () => {} : options.onText;
  let tier: ServiceTierName = 'standard';
  let searchSuggestions: string | null = null;
  let answer = '';
  const usage = new UsageReader();
  let finishReason: string | undefined;
  let blockReason: string | undefined;
  const sources = new Map<string, Source>();
  const metadata = { chunks: 0, supports: 0 };
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
      const supports = candidate?.groundingMetadata?.groundingSupports ?? [];
      metadata.chunks += chunks.length;
      metadata.supports += supports.length;
      if (metadata.chunks > GROUNDING_LIMITS.chunks) throw new ReplyRefused(`over ${GROUNDING_LIMITS.chunks} grounding sources`);
      if (metadata.supports > GROUNDING_LIMITS.supports) throw new ReplyRefused(`over ${GROUNDING_LIMITS.supports} grounding supports`);
      for (const g of chunks) {
        if (g.web?.uri && !sources.has(g.web.uri)) {
          sources.set(g.web.uri, { uri: g.web.uri, title: g.web.title ?? '', site: siteOf(g.web) });
        }
      }
      // A support's chunk indices point into the same message's chunk list.
      for (const support of supports) {
        const text = support.segment?.text;
        if (!text) continue;
        for (const i of (support.groundingChunkIndices ?? []).slice(0, chunks.length)) {
          const source = sources.get(chunks[i]?.web?.uri ?? '');
          if (!source) continue;
          if (source.segments) source.segments.push(text);
          else source.segments = [text];
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
    throw withUsage(geminiFailure(err, signal), usage, model, tier);
  } finally {
    left.abort();
  }
  tier = usage.servedTier() ?? tier;
  const blocked = blockedFailure(blockReason, finishReason);
  if (blocked) throw withUsage(blocked, usage, model, tier);
  const cut = finishReason === 'MAX_TOKENS';
  if (!answer.trim()) throw withUsage(cut ? cutBeforeAnswer() : emptyAnswer(), usage, model, tier);
  const tail = responseJsonSchema ? '' : (cut ? CUT_NOTE : '') + sourcesBlock([...sources.values()]);
  if (tail) {
    answer += tail;
    await onText(tail);
  }
  const answeredBy = usage.modelVersion ?? model;
  return { answer, usage: usage.usage(), answeredBy, tier, searchSuggestions, sources: [...sources.values()], cut };
}

/** The failure with what the call had used before it (what Google bills), when its reply reported any. */
function withUsage(err: SearchError, usage: UsageReader, model: string, tier: ServiceTierName): SearchError {
  if (usage.reported && !err.usedBeforeFailure) {
    err.usedBeforeFailure = { usage: usage.usage(), model: usage.modelVersion ?? model, tier: usage.servedTier() ?? tier };
  }
  return err;
}
