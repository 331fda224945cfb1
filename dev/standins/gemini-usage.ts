/**
 * What the Gemini stand-in reports of a call's cost, shaped and sized as Google's replies are: usageMetadata
 * (prompt, tool-use prompt, answer and thinking tokens) and, for a grounded answer, groundingMetadata with the
 * search queries the model ran and the Search Suggestions chip (`searchEntryPoint.renderedContent`) that
 * Google's terms require a product to show.
 */

export interface StandinCallShape {
  prompt: string;
  /** Google Search was among the request's tools. */
  grounded: boolean;
  /** The request asked for no thinking (a zero budget); other settings think. */
  thinkingOff: boolean;
  /** The Google Search queries the model ran (none when the call was not grounded). */
  queries: string[];
}

// Sizes seen in real replies of Gemini 3 Flash with low thinking: a grounded answer reads a few search result
// pages' worth of snippets (tool-use prompt tokens) and thinks a few hundred tokens.
const SYSTEM_TOKENS = 110;
const TOOL_TOKENS_PER_QUERY = 650;
const THINKING_TOKENS = 320;

const tokens = (text: string) => Math.ceil(text.length / 4);

/**
 * The queries a grounded answer runs: the question itself, and once more with the year for dated events. A
 * prompt that asks for as few searches as possible (core/search/prompt.ts FEW_SEARCHES) gets one query with the
 * year, as Gemini 3 does for an explicit instruction on its tool use, unless the model is set to ignore it
 * (`heedsFewSearches: false`, for the benchmark's figure of a model that does not follow it).
 */
export function searchQueriesFor(prompt: string, heedsFewSearches = true): string[] {
  const question = /QUESTION:\s*(.+)/.exec(prompt)?.[1]?.trim() ?? prompt.trim().split('\n')[0] ?? 'events';
  const short = question.slice(0, 120);
  const year = new Date().getUTCFullYear();
  if (heedsFewSearches && /as few Google searches as you can/i.test(prompt)) return [`${short} ${year}`];
  return [short, `${short} ${year} dates`];
}

/** usageMetadata after `sent` of the answer was written. */
export function usageFor(call: StandinCallShape, sent: string) {
  const promptTokenCount = SYSTEM_TOKENS + tokens(call.prompt);
  const toolUsePromptTokenCount = TOOL_TOKENS_PER_QUERY * call.queries.length;
  const thoughtsTokenCount = call.thinkingOff ? 0 : THINKING_TOKENS;
  const candidatesTokenCount = tokens(sent);
  return {
    promptTokenCount,
    candidatesTokenCount,
    ...(toolUsePromptTokenCount ? { toolUsePromptTokenCount } : {}),
    ...(thoughtsTokenCount ? { thoughtsTokenCount } : {}),
    totalTokenCount: promptTokenCount + toolUsePromptTokenCount + thoughtsTokenCount + candidatesTokenCount,
  };
}

/** The Search Suggestions chip as Google renders it: a style block and one chip (a link) per query. */
export function searchEntryPointFor(queries: string[]): { renderedContent: string } {
  const chips = queries
    .map((q) => `<a class="chip" href="https://www.google.com/search?q=${encodeURIComponent(q)}">${escapeHtml(q)}</a>`)
    .join('');
  return {
    renderedContent:
      '<style>.container{align-items:center;border-radius:8px;display:flex;font-family:Google Sans,Roboto,sans-serif;' +
      'font-size:14px;line-height:20px;padding:8px 12px}.chip{display:inline-block;border:solid 1px;border-radius:16px;' +
      'min-width:14px;padding:5px 16px;text-align:center;user-select:none;margin:0 8px;border-color:#d2d2d2;' +
      'background-color:#fff;color:#5e5e5e;text-decoration:none}.carousel{overflow:auto;scrollbar-width:none;' +
      `white-space:nowrap;margin-right:-12px}</style><div class="container"><div class="carousel">${chips}</div></div>`,
  };
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
