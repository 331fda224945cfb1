/**
 * The status a title (or a status written as free text) states in words, in the languages the product reads:
 * "Board Meeting – CANCELLED", "(Cancelled) Council", "Abgesagt: Konzert", "Concert annulé", "Postponed".
 * Only clear markers count (docs/decisions/events-as-data.md): the marker alone, in parentheses or brackets, at the start before a
 * dash or colon (or in capitals, or after a warning word: "Achtung, verschoben: Repair Café"), or at the end, so
 * "Cancellation policy workshop" and "The Cancelled Sisters" stay scheduled. Postponed and rescheduled are `moved`, as schema.org's EventPostponed is read.
 */

const CANCELLED = [
  'cancelled',
  'canceled',
  'abgesagt',
  'entfällt',
  'fällt aus',
  'annulé',
  'annulée',
  'annulés',
  'annulées',
  'annullato',
  'annullata',
  'cancelado',
  'cancelada',
  'suspendido',
  'suspendida',
  'geannuleerd',
  'afgelast',
];
const MOVED = [
  'postponed',
  'rescheduled',
  'verschoben',
  'verlegt',
  'reporté',
  'reportée',
  'rinviato',
  'rinviata',
  'posticipato',
  'posticipata',
  'aplazado',
  'aplazada',
  'pospuesto',
  'pospuesta',
  'uitgesteld',
  'verplaatst',
];

// Words that only call attention to what follows ("Achtung, verschoben: Repair Café", "UPDATE: Cancelled - Gala"):
// a marker after one of them is still at the start.
const WARNING = [
  'achtung',
  'attention',
  'update',
  'wichtig',
  'important',
  'hinweis',
  'note',
  'notice',
  'info',
  'attenzione',
  'atención',
  'atencion',
  'let op',
];

const alternatives = (words: string[]) => words.map((w) => w.replace(/ /g, '\\s+')).join('|');
// A marker is a whole word: no letter or digit touches it.
const word = (words: string[]) => `(?<![\\p{L}\\p{N}])(?:${alternatives(words)})(?![\\p{L}\\p{N}])`;
const SEPARATOR = '[-–—:|!/]';

function markers(words: string[]): RegExp[] {
  const w = word(words);
  return [
    // The marker alone, or wrapped: "Cancelled", "(Cancelled) Council", "Concert [postponed]", "*CANCELLED*".
    new RegExp(`^[\\s*!.]*${w}[\\s*!.]*$`, 'iu'),
    new RegExp(`[([{*]\\s*${w}\\s*[!.]?\\s*[)\\]}*]`, 'iu'),
    // At the start before a separator: "Abgesagt: Konzert", "CANCELLED - Typhoon with Radiation City", also
    // after a warning word: "Achtung, verschoben: Repair Café".
    new RegExp(`^\\s*(?:${word(WARNING)}\\s*[,:!-]?\\s*)?${w}\\s*!*\\s*${SEPARATOR}`, 'iu'),
    // After a separator at the end, or as the title's last words: "Board Meeting – CANCELLED", "Konzert entfällt".
    new RegExp(`${w}[\\s!.]*$`, 'iu'),
  ];
}

const CANCELLED_MARKERS = markers(CANCELLED);
const MOVED_MARKERS = markers(MOVED);
// A title that starts with the marker in capitals needs no separator: "CANCELLED Board of Education Meeting".
const CAPITAL_START = new RegExp(`^\\s*(${alternatives([...CANCELLED, ...MOVED].map((w) => w.toUpperCase()))})(?![\\p{L}\\p{N}])`, 'u');

/** `cancelled` or `moved` when the text says so by a clear marker, else undefined. Cancelled wins over moved. */
export function statusInWords(text: string | undefined): 'cancelled' | 'moved' | undefined {
  if (!text) return undefined;
  const t = text.normalize('NFC');
  if (CANCELLED_MARKERS.some((r) => r.test(t))) return 'cancelled';
  if (MOVED_MARKERS.some((r) => r.test(t))) return 'moved';
  const capital = CAPITAL_START.exec(t)?.[1];
  if (capital) return CANCELLED.includes(capital.toLowerCase().replace(/\s+/g, ' ')) ? 'cancelled' : 'moved';
  return undefined;
}
