/**
 * A sentence being read: each recognised phrase is taken out (its place left as a clause break), so what no
 * rule took is what remains for the question.
 */
export class Words {
  constructor(public rest: string) {}

  /** Each match of `pattern` (global) handed to `use`; taken out when `use` returns true (or nothing). */
  take(pattern: RegExp, use: (match: RegExpExecArray) => unknown): void {
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
      out += `${this.rest.slice(last, m.index)} , `;
      last = m.index + m[0].length;
    }
    this.rest = out + this.rest.slice(last);
  }

  /** Takes out the span [start, end) of `rest`. */
  cut(start: number, end: number): void {
    this.rest = `${this.rest.slice(0, start)} , ${this.rest.slice(end)}`;
  }
}

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
