import type { GenerateContentResponse } from '@google/genai';
import type { ServiceTierName } from './prices';

/**
 * What Gemini calls used, as Google bills them: input tokens (the prompt plus what grounding tools fed back
 * to the model), output tokens (the answer), thinking tokens (billed as output), and the Google Search queries
 * the model ran (Gemini 3 bills each query; 2.5 bills a grounded prompt once).
 */
export interface GeminiUsage {
  calls: number;
  promptTokens: number;
  outputTokens: number;
  thinkingTokens: number;
  groundingQueries: number;
  /** Calls that ran Google Search at all (what Gemini 2.5 bills). */
  groundedCalls: number;
}

export const NO_USAGE: GeminiUsage = Object.freeze({
  calls: 0,
  promptTokens: 0,
  outputTokens: 0,
  thinkingTokens: 0,
  groundingQueries: 0,
  groundedCalls: 0,
});

export function addUsage(a: GeminiUsage, b: GeminiUsage): GeminiUsage {
  return {
    calls: a.calls + b.calls,
    promptTokens: a.promptTokens + b.promptTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    thinkingTokens: a.thinkingTokens + b.thinkingTokens,
    groundingQueries: a.groundingQueries + b.groundingQueries,
    groundedCalls: a.groundedCalls + b.groundedCalls,
  };
}

/**
 * Reads one call's usage from the pieces of its reply. A stream repeats the running usage totals in its pieces,
 * so the last one counts; search queries are collected across pieces, each distinct query once.
 */
export class UsageReader {
  private last: GenerateContentResponse['usageMetadata'];
  private readonly queries = new Set<string>();
  /** The model that answered (an alias's current target), as the reply names it. */
  modelVersion: string | undefined;

  read(piece: GenerateContentResponse): void {
    if (piece.usageMetadata) this.last = piece.usageMetadata;
    if (piece.modelVersion) this.modelVersion = piece.modelVersion;
    for (const q of piece.candidates?.[0]?.groundingMetadata?.webSearchQueries ?? []) this.queries.add(q);
  }

  /** Whether any piece reported usage (a call that failed before it has nothing Google bills). */
  get reported(): boolean {
    return this.last !== undefined;
  }

  /**
   * The tier the reply says it was served on (Gemini API `serviceTier`, Vertex `trafficType`), which is the one
   * Google bills; undefined when the reply does not say. Priority is priced as standard until the table has a
   * row for it.
   */
  servedTier(): ServiceTierName | undefined {
    // The client passes usageMetadata through as Google sent it; its type names only Vertex's trafficType.
    const u = this.last as { serviceTier?: string; trafficType?: string } | undefined;
    const said = String(u?.serviceTier ?? u?.trafficType ?? '').toLowerCase();
    if (!said || said === 'unspecified' || said === 'traffic_type_unspecified') return undefined;
    return said === 'flex' || said === 'on_demand_flex' ? 'flex' : 'standard';
  }

  usage(): GeminiUsage {
    const u = this.last ?? {};
    return {
      calls: 1,
      promptTokens: (u.promptTokenCount ?? 0) + (u.toolUsePromptTokenCount ?? 0),
      outputTokens: u.candidatesTokenCount ?? 0,
      thinkingTokens: u.thoughtsTokenCount ?? 0,
      groundingQueries: this.queries.size,
      groundedCalls: this.queries.size > 0 ? 1 : 0,
    };
  }
}
