/**
 * The one cache of Intl.DateTimeFormat objects. Building one costs far more than using it (tens of
 * microseconds against a few), and a page of events, a calendar of thousands or a list of timers asks for the
 * same few zones and locales again and again. A zone or locale the runtime does not know is remembered as
 * null, so a hostile calendar naming one bad zone thousands of times pays for it once. Bounded: the names come
 * from untrusted input. Browser-safe.
 */

const MAX_FORMATS = 2_000;
const formats = new Map<string, Intl.DateTimeFormat | null>();

/**
 * The format `make` builds, built once per `key` (which must say everything `make` depends on); null when
 * `make` throws (an unknown zone or locale: Intl's RangeError).
 */
export function cachedFormat(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat | null {
  const known = formats.get(key);
  if (known !== undefined) return known;
  let format: Intl.DateTimeFormat | null;
  try {
    format = make();
  } catch {
    format = null;
  }
  if (formats.size >= MAX_FORMATS) formats.clear();
  formats.set(key, format);
  return format;
}
