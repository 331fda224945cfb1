import { controlCharacterMessage, hasControlCharacters } from '../../core/control-characters';
import { checkQuestion } from '../../core/question-input';
import { ApiError } from '../errors';

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
  const check = checkQuestion(ques, web, 'Please enter a question, for example: Find AI conferences in Berlin next month.');
  if (!check.ok) throw bad(check.message);
  if (typeof timezone === 'string' && hasControlCharacters(timezone, 'single-line')) throw bad(controlCharacterMessage('time zone'));
  return { ques: check.ques, web: check.web, timezone: typeof timezone === 'string' ? timezone.slice(0, 64) : 'UTC' };
}
