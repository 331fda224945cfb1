import { controlCharacterMessage, hasControlCharacters } from './control-characters';
import { SearchError } from './search-error';
import { parseWebsiteUrl } from './website/fetch';

export const MAX_QUESTION_CHARS = 2000;
export const MAX_WEBSITE_CHARS = 2048;

export type QuestionCheck = { ok: true; ques: string; web: string } | { ok: false; message: string };

/**
 * The question and website of a search, as /api/ask and /api/schedule both take them: trimmed, bounded, and
 * the website a plain http(s) address or empty. `emptyQuestion` is the sentence for a missing question, which
 * differs between asking now and saving a timer.
 */
export function checkQuestion(ques: unknown, web: unknown, emptyQuestion: string): QuestionCheck {
  const question = typeof ques === 'string' ? ques.trim() : '';
  if (!question) return { ok: false, message: emptyQuestion };
  if (hasControlCharacters(question, 'multi-line')) return { ok: false, message: controlCharacterMessage('question') };
  if (question.length > MAX_QUESTION_CHARS) {
    return {
      ok: false,
      message: `Your question is too long (${question.length} characters). Please keep it under ${MAX_QUESTION_CHARS} characters.`,
    };
  }
  if (web !== undefined && web !== null && typeof web !== 'string') {
    return { ok: false, message: 'The website must be text: a web address or nothing.' };
  }
  if (typeof web === 'string' && hasControlCharacters(web.trim(), 'single-line')) {
    return { ok: false, message: controlCharacterMessage('website address') };
  }
  const website = withScheme((web ?? '').trim());
  if (website.length > MAX_WEBSITE_CHARS) {
    return { ok: false, message: `The website address is too long. Please use an address under ${MAX_WEBSITE_CHARS} characters.` };
  }
  if (website) {
    try {
      parseWebsiteUrl(website);
    } catch (err) {
      if (err instanceof SearchError) return { ok: false, message: err.message };
      throw err;
    }
  }
  return { ok: true, ques: question, web: website };
}

// People type addresses the way they see them in a browser bar ("example.com/events"): those mean https.
const BARE_HOST = /^(?!-)[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?([/?#]\S*)?$/i;

function withScheme(website: string): string {
  return website && !/^[a-z][a-z0-9+.-]*:\/\//i.test(website) && BARE_HOST.test(website) ? `https://${website}` : website;
}
