import type { DescribedTimer } from '../../contract/describe';
import { filterPhrases } from './filter-phrases';
import { refusalFor } from './refusals';
import { schedulePhrases } from './schedule-phrases';
import { HELD_ANY, Words } from './words';

export type ParseOutcome =
  | { kind: 'described'; timer: DescribedTimer; notes: string[] }
  /** The sentence asks for what no timer does; `message` says what and what to write instead. */
  | { kind: 'refused'; message: string }
  /** Not one of the common forms: the model reads it (core/timers/describe/model-describe.ts). */
  | { kind: 'unsure'; reason: string };

// Words about when that no rule here took: the sentence says more about its schedule than these rules read.
const LEFT_OVER_WHEN =
  /\b(?:every|each|daily|weekly|jede[nrsm]?|täglich|wöchentlich|uhr|o'?clock|a\.m\.|p\.m\.|mornings?|evenings?|nights?|afternoons?|tonight|tomorrow|morgens|abends?|nachmittags?|nachts|morgen|times|mal)\b/iu;

// Leading words that ask rather than say what is looked for ("remind me of", "search for", "suche nach").
const LEADING =
  /^(?:(?:and|und|also|auch|then|dann|please|bitte|for|about|für|über|zu|of|on|am|at|um|with|mit)\b\s*|(?:remind me(?: of| about)?|tell me(?: about)?|let me know(?: about)?|notify me(?: about| of)?|send me|search(?: for)?|look(?: for)?|find|check(?: for)?|show me|erinnere mich(?: an)?|sag mir(?: bescheid)?|such(?:e)?(?: nach)?|finde?|zeig(?:e)? mir)\b\s*)+/iu;
const TRAILING = /(?:\s*\b(?:and|und|at|um|on|am|with|mit|for|für)\b)+\s*$/iu;

/**
 * What the sentence looks for: the clauses no rule took, without the words that only ask, with the place
 * phrases `words` held put back (a clause that is only a place joins the one before it: "meetups, near Bonn"
 * reads "meetups near Bonn").
 */
export function questionOf(words: Words): string {
  const clauses = words.rest
    .split(/\s*[,;]\s*/)
    .map((clause) =>
      clause
        .replace(/\s+/g, ' ')
        .trim()
        .replace(LEADING, '')
        .replace(TRAILING, '')
        .replace(/^[.:!?\-–\s]+|[.:!\-–\s]+$/g, '')
        .trim(),
    )
    .filter((clause) => clause.length > 0);
  const held = new RegExp(`^${HELD_ANY.source}`, 'u');
  return words.restored(clauses.map((c, i) => (i > 0 && held.test(c) ? ` ${c}` : i > 0 ? `, ${c}` : c)).join(''));
}

/**
 * The common forms of a timer in words, English and German ("every day at 9", "weekly on Mon 18:30, AI
 * meetups in Berlin, in person, next two weeks"), read without a model call. Whatever is not a common form
 * comes back `unsure`, never guessed.
 */
export function parseSentence(sentence: string, now: Date): ParseOutcome {
  const refusal = refusalFor(sentence);
  if (refusal) return { kind: 'refused', message: refusal };
  const words = new Words(sentence.replace(/\s+/g, ' ').trim());
  let web = '';
  words.take(/\bhttps?:\/\/[^\s,]+/iu, (m) => {
    web = m[0].replace(/[.)]+$/, '');
  });
  const filters = filterPhrases(words, now);
  const schedule = schedulePhrases(words, now);
  if (schedule.refusal) return { kind: 'refused', message: schedule.refusal };
  if (!schedule.scheduleType) return { kind: 'unsure', reason: 'no daily or weekly schedule in the common forms' };
  const ques = questionOf(words);
  const leftOver = LEFT_OVER_WHEN.exec(ques);
  if (leftOver) return { kind: 'unsure', reason: `“${leftOver[0]}” left over` };
  const notes = [...schedule.notes, ...filters.notes];
  if (!ques) notes.push('No question was found: type what to look for in Your Question.');
  return {
    kind: 'described',
    timer: {
      scheduleType: schedule.scheduleType,
      time: schedule.time,
      weekday: schedule.scheduleType === 'weekly' ? schedule.weekday : null,
      ques,
      web,
      filters: { window: filters.window, place: filters.place, attendance: filters.attendance, exclude: filters.exclude },
    },
    notes,
  };
}
