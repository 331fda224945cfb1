import { type SendGate, sentWhen } from '../gemini/send-gate';
import { heldAnswer } from './held-answer';
import { type AnswerDelivery, answerSearch, type PreparedSearch, prepareSearch, type SearchDeps, type SearchInput } from './index';

/** An answer asked for before its search was admitted: what it was asked with, and the answer, held. */
export interface EarlyAnswer {
  prepared: PreparedSearch;
  held: ReturnType<typeof heldAnswer>;
}

/**
 * An ask without a website, its answer asked for while its admission is still being decided (decision 092): the
 * prompt is made and the official client builds its request now, and the request leaves the moment `send`
 * resolves true (core/gemini/send-gate.ts), or never. Its text is held as any answer asked while charging is
 * (held-answer.ts); the charged search takes it over (`ChargedSearchRequest.early`) or the caller cancels it.
 * With a website there is nothing to start: the website is read first, and only once the search is admitted.
 */
export async function answerBeforeAdmission(
  deps: SearchDeps,
  input: SearchInput,
  send: SendGate,
  signal: AbortSignal,
  delivery: AnswerDelivery,
): Promise<EarlyAnswer | null> {
  if (input.website) return null;
  const prepared = await prepareSearch(deps, input, signal);
  const held = sentWhen(send, () =>
    heldAnswer((onText, answerSignal) => answerSearch(deps, prepared, onText, answerSignal, delivery), signal),
  );
  return { prepared, held };
}
