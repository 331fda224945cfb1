import { isUsCity, usStateZone, venueZone } from './venue-zone';

/*
 * The place a page's visible text names in a postal address line, for events whose structured data names none:
 * civic pages put the venue's street in the markup and "Chicago, IL 60626" only in the text beside it
 * (business.rpba.org's meeting pages). Only the shapes of a North American address line count, prose mentioning
 * places does not: a city, a two-letter state or province code and a ZIP or postal code together; or a house
 * number and street, up to three more parts (floor, room), then a US city and its state by code or name
 * ("69 W. Washington St., 22nd Floor, Conference Room 'B', Chicago, Illinois" in an eventON description).
 */
// Words of at most 30 letters, at most four of them: each position costs a bounded number of steps, however
// hostile the text (a long run of letters cannot make the search quadratic).
const ADDRESS_LINE =
  /(?<![\p{L}\p{N}])(\p{Lu}[\p{L}.'-]{0,30}(?: \p{Lu}[\p{L}.'-]{0,30}){0,3}),? ([A-Z]{2})\.? (\d{5}(?:-\d{4})?|[A-Z]\d[A-Z] ?\d[A-Z]\d)(?![\p{L}\p{N}])/gu;
// A city of at most three words after a comma, followed by a state of at most two words: the state is looked
// ahead, not taken, so "…, Entrance A, Akron, OH" is tried at "Entrance A" and again at "Akron".
const CITY_STATE =
  /, ?(\p{Lu}[\p{L}.'-]{0,30}(?: \p{Lu}[\p{L}.'-]{0,30}){0,2})(?=, (\p{Lu}\p{L}{1,20}(?: \p{Lu}\p{L}{1,20})?)(?![\p{L}\p{N}]))/gu;
// The house number and street word a street address line starts with, looked for on the city's line before it.
const HOUSE_NUMBER = /(?<![\p{L}\p{N}])\d{1,6} \p{L}/u;
/** How far before the city a street line's house number may stand, in characters (a street and three parts). */
const STREET_REACH = 160;
/** Address lines read at most, so a long listing costs no more than a short one. */
const MAX_LINES = 50;

/** The zone of a street line's city and state, when the city is one the table knows in a US state. */
function streetLineZone(city: string, state: string): string | null {
  if (!isUsCity(city)) return null;
  // "Chicago, Illinois To …": a capitalised word after the state is not part of it.
  const region = [state, state.split(' ')[0]!].find((s) => usStateZone(s) !== null);
  return region ? venueZone({ address: `${city}, ${region}` }) : null;
}

/** Whether the text before `at`, on the same line and within reach, holds a house number and street. */
function onStreetLine(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - STREET_REACH), at);
  return HOUSE_NUMBER.test(before.slice(before.lastIndexOf('\n') + 1));
}

/** The zone each address line of the text gives (null for a line the tables cannot place), at most MAX_LINES of each shape. */
function* lineZones(text: string): Generator<string | null> {
  for (const m of first(text.matchAll(ADDRESS_LINE))) yield venueZone({ address: `${m[1]}, ${m[2]} ${m[3]}` });
  for (const m of first(text.matchAll(CITY_STATE))) yield onStreetLine(text, m.index ?? 0) ? streetLineZone(m[1]!, m[2]!) : null;
}

/** The one zone every address line in the text gives (at least one), else null. */
export function textPlaceZone(text: string): string | null {
  let zone: string | null = null;
  for (const found of lineZones(text)) {
    if (!found) continue;
    if (zone && zone !== found) return null;
    zone = found;
  }
  return zone;
}

/** The first MAX_LINES matches. */
function* first(matches: IterableIterator<RegExpMatchArray>): Generator<RegExpMatchArray> {
  let n = 0;
  for (const m of matches) {
    if (++n > MAX_LINES) return;
    yield m;
  }
}
