import { venueZone } from './venue-zone';

/*
 * The place a page's visible text names in a postal address line, for events whose structured data names none:
 * civic pages put the venue's street in the markup and "Chicago, IL 60626" only in the text beside it
 * (business.rpba.org's meeting pages). Only a city, a two-letter state or province code and a ZIP or postal code
 * together count, the shape of a North American address line; prose mentioning places does not.
 */
// Words of at most 30 letters, at most four of them: each position costs a bounded number of steps, however
// hostile the text (a long run of letters cannot make the search quadratic).
const ADDRESS_LINE =
  /(?<![\p{L}\p{N}])(\p{Lu}[\p{L}.'-]{0,30}(?: \p{Lu}[\p{L}.'-]{0,30}){0,3}),? ([A-Z]{2})\.? (\d{5}(?:-\d{4})?|[A-Z]\d[A-Z] ?\d[A-Z]\d)(?![\p{L}\p{N}])/gu;
/** Address lines read at most, so a long listing costs no more than a short one. */
const MAX_LINES = 50;

/** The one zone every address line in the text gives (at least one), else null. */
export function textPlaceZone(text: string): string | null {
  let zone: string | null = null;
  let lines = 0;
  for (const m of text.matchAll(ADDRESS_LINE)) {
    if (++lines > MAX_LINES) break;
    const found = venueZone({ address: `${m[1]}, ${m[2]} ${m[3]}` });
    if (!found) continue;
    if (zone && zone !== found) return null;
    zone = found;
  }
  return zone;
}
