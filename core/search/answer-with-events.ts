import { EXTRACTION_SCHEMA, type ExtractedEvent, ExtractionError, eventsOfJson, REPEAT_INSTRUCTION } from '../events/model-extraction';

/**
 * One call for a search nobody watches (a timer run): the answer and its events together, as structured output
 * (docs/decisions/gemini-and-cost.md). `answer` is the text the user reads, exactly as a plain answer would be written; `events` is
 * what the extraction call would return for it.
 */
export const ANSWER_WITH_EVENTS_SCHEMA = {
  type: 'object',
  properties: {
    answer: { type: 'string', description: 'the answer for the user, plain text without Markdown' },
    events: EXTRACTION_SCHEMA.properties.events,
  },
  required: ['answer', 'events'],
} as const;

export const ANSWER_WITH_EVENTS_INSTRUCTION =
  'Reply as JSON. "answer" is your answer to the question as plain text, written as you would write it for the user. ' +
  '"events" lists every event the answer names, using only what the answer and the facts above say; unknown fields ' +
  'are null. Times are ISO 8601 with the offset of the place, or YYYY-MM-DD for all-day events. ' +
  REPEAT_INSTRUCTION;

export function answerWithEventsPrompt(searchPrompt: string): string {
  return `${searchPrompt}\n\n${ANSWER_WITH_EVENTS_INSTRUCTION}`;
}

/** The answer and events of the one call's reply; throws ExtractionError when it is not that JSON. */
export function parseAnswerWithEvents(text: string): { answer: string; events: ExtractedEvent[] } {
  let json: unknown;
  try {
    json = JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    throw new ExtractionError(`The answer reply is not JSON: ${text.slice(0, 120)}`);
  }
  const answer = (json as { answer?: unknown })?.answer;
  if (typeof answer !== 'string' || !answer.trim()) throw new ExtractionError('The answer reply has no "answer" text.');
  return { answer: answer.trim(), events: eventsOfJson(json) };
}
