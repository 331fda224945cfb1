/**
 * A sentence being read: each recognised phrase is taken out (its place left as a clause break), so what no
 * rule took is what remains for the question.
 */
export class Words {
  /** Phrases read and kept in the question (a place); each stands in `rest` as one private-use character. */
  private readonly held: string[] = [];

  constructor(public rest: string) {}

  /** Like `take`, but the phrase stays in the question: `restored` puts it back where it stood. */
  hold(pattern: RegExp, use: (match: RegExpExecArray) => unknown): void {
    this.replace(pattern, use, (m) => {
      this.held.push(m[0].trim());
      return HELD(this.held.length - 1);
    });
  }

  /** `text` (made of `rest`) with each held phrase back in its place. */
  restored(text: string): string {
    return text.replace(HELD_ANY, (c) => this.held[c.charCodeAt(0) - HELD_BASE] ?? '');
  }

  /** Each match of `pattern` (global) handed to `use`; taken out when `use` returns true (or nothing). */
  take(pattern: RegExp, use: (match: RegExpExecArray) => unknown): void {
    this.replace(pattern, use, () => ' , ');
  }

  private replace(pattern: RegExp, use: (match: RegExpExecArray) => unknown, by: (match: RegExpExecArray) => string): void {
    const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
    const re = new RegExp(pattern.source, flags);
    let out = '';
    let last = 0;
    for (let m = re.exec(this.rest); m; m = re.exec(this.rest)) {
      if (m[0] === '') {
        re.lastIndex++;
        continue;
      }
      if (use(m) === false) continue;
      out += `${this.rest.slice(last, m.index)}${by(m)}`;
      last = m.index + m[0].length;
    }
    this.rest = out + this.rest.slice(last);
  }

  /** Takes out the span [start, end) of `rest`. */
  cut(start: number, end: number): void {
    this.rest = `${this.rest.slice(0, start)} , ${this.rest.slice(end)}`;
  }
}

const HELD_BASE = 0xe000;
const HELD = (i: number) => String.fromCharCode(HELD_BASE + i);
/** A held phrase's stand-in: a character no sentence carries and no pattern here reads. */
export const HELD_ANY = /[\ue000-\ue0ff]/gu;

/** Number words up to twelve, English and German. */
const NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  ein: 1,
  eine: 1,
  einen: 1,
  zwei: 2,
  drei: 3,
  vier: 4,
  fünf: 5,
  sechs: 6,
  sieben: 7,
  acht: 8,
  neun: 9,
  zehn: 10,
  elf: 11,
  zwölf: 12,
};
export const NUMBER_WORDS = Object.keys(NUMBERS).join('|');

export function numberOf(word: string | undefined): number | null {
  if (word === undefined || word === '') return 1;
  const n = /^\d+$/.test(word) ? Number(word) : NUMBERS[word.toLowerCase()];
  return n === undefined ? null : n;
}
