import { SearchError } from '../../core/search/errors';
import { parseWebsiteUrl } from '../../core/search/website';
import { ApiError } from '../errors';

export const MAX_QUESTION_CHARS = 2000;
export const MAX_WEBSITE_CHARS = 2048;

export interface AskInput {
  ques: string;
  web: string;
  timezone: string;
}

const bad = (message: string) => new ApiError(400, message, { format: 'text' });

/** Validates the body of POST /api/ask; the page checks nothing (spec section 5), so the server must. */
export function parseAskInput(body: unknown): AskInput {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw bad('The request must be a JSON object with ques and web.');
  const { ques, web, timezone } = body as Record<string, unknown>;
  if (typeof ques !== 'string' || ques.trim() === '') throw bad('Please enter a question, for example: Find AI conferences in Berlin next month.');
  if (ques.trim().length > MAX_QUESTION_CHARS) {
    throw bad(`Your question is too long (${ques.trim().length} characters). Please keep it under ${MAX_QUESTION_CHARS} characters.`);
  }
  if (web !== undefined && web !== null && typeof web !== 'string') throw bad('The website must be text: a web address or nothing.');
  const website = (web ?? '').trim();
  if (website.length > MAX_WEBSITE_CHARS) {
    throw bad(`The website address is too long. Please use an address under ${MAX_WEBSITE_CHARS} characters.`);
  }
  if (website) {
    try {
      parseWebsiteUrl(website);
    } catch (err) {
      if (err instanceof SearchError) throw bad(err.message);
      throw err;
    }
  }
  return { ques: ques.trim(), web: website, timezone: typeof timezone === 'string' ? timezone.slice(0, 64) : 'UTC' };
}
