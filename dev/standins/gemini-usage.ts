/**
 * What the Gemini stand-in reports of a call's cost, shaped and sized as Google's replies are: usageMetadata
 * (prompt, tool-use prompt, answer and thinking tokens) and, for a grounded answer, groundingMetadata with the
 * search queries the model ran and the Search Suggestions chip (`searchEntryPoint.renderedContent`) that
 * Google's terms require a product to show.
 */

export interface StandinCallShape {
  /** The model that answers (its family sets how much of the search results it reads). */
  model: string;
  prompt: string;
  /** Google Search was among the request's tools. */
  grounded: boolean;
  /** The request asked for no thinking (a zero budget); other settings think. */
  thinkingOff: boolean;
  /** The Google Search queries the model ran (none when the call was not grounded). */
  queries: string[];
}

// Sizes of real grounded replies. Gemini 2.5 reads 102 to 319 tool-use prompt tokens per search query (six
// recorded replies in test/fixtures/gemini-recorded: 102, 109, 119, 286, 308, 319; about 210 on average). Gemini
// 3 reads far more: one real Gemini 3 Flash call reported 18,329 tool-use prompt tokens for its searches, which
// the stand-in reports for every grounded 3.x call, so a cost measured on it errs high. Thinking: a few hundred.
const SYSTEM_TOKENS = 110;
const TOOL_TOKENS_PER_QUERY_2X = 210;
const TOOL_TOKENS_PER_GROUNDED_CALL_3X = 18_329;
const THINKING_TOKENS = 320;

function toolUseTokens(call: StandinCallShape): number {
  if (call.queries.length === 0) return 0;
  return /^gemini-[12]\./.test(call.model) ? TOOL_TOKENS_PER_QUERY_2X * call.queries.length : TOOL_TOKENS_PER_GROUNDED_CALL_3X;
}

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
  const toolUsePromptTokenCount = toolUseTokens(call);
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

// Google's "G" logo as its chip draws it (the light-scheme one of a recorded reply: pydantic-ai's
// test_google_model_web_search_tool cassette), with its mixed-case viewBox that a careless sanitiser drops.
const G_LOGO =
  '<svg class="logo-light" width="18" height="18" viewBox="9 9 35 35" fill="none" xmlns="http://www.w3.org/2000/svg">' +
  '<path fill-rule="evenodd" clip-rule="evenodd" d="M42.8622 27.0064C42.8622 25.7839 42.7525 24.6084 42.5487 23.4799H26.3109V30.1568H35.5897C35.1821 32.3041 33.9596 34.1222 32.1258 35.3448V39.6864H37.7213C40.9814 36.677 42.8622 32.2571 42.8622 27.0064V27.0064Z" fill="#4285F4"/>' +
  '<path fill-rule="evenodd" clip-rule="evenodd" d="M26.3109 43.8555C30.9659 43.8555 34.8687 42.3195 37.7213 39.6863L32.1258 35.3447C30.5898 36.3792 28.6306 37.0061 26.3109 37.0061C21.8282 37.0061 18.0195 33.9811 16.6559 29.906H10.9194V34.3573C13.7563 39.9841 19.5712 43.8555 26.3109 43.8555V43.8555Z" fill="#34A853"/>' +
  '<path fill-rule="evenodd" clip-rule="evenodd" d="M16.6559 29.8904C16.3111 28.8559 16.1074 27.7588 16.1074 26.6146C16.1074 25.4704 16.3111 24.3733 16.6559 23.3388V18.8875H10.9194C9.74388 21.2072 9.06992 23.8247 9.06992 26.6146C9.06992 29.4045 9.74388 32.022 10.9194 34.3417L15.3864 30.8621L16.6559 29.8904V29.8904Z" fill="#FBBC05"/>' +
  '<path fill-rule="evenodd" clip-rule="evenodd" d="M26.3109 16.2386C28.85 16.2386 31.107 17.1164 32.9095 18.8091L37.8466 13.8719C34.853 11.082 30.9659 9.3736 26.3109 9.3736C19.5712 9.3736 13.7563 13.245 10.9194 18.8875L16.6559 23.3388C18.0195 19.2636 21.8282 16.2386 26.3109 16.2386V16.2386Z" fill="#EA4335"/>' +
  '</svg>';

/** The Search Suggestions chip as Google renders it: a style block, the "G" logo and one chip (a link) per query. */
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
      'white-space:nowrap;margin-right:-12px}.headline{display:flex;margin-right:4px}</style><div class="container">' +
      `<div class="headline">${G_LOGO}</div><div class="carousel">${chips}</div></div>`,
  };
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
