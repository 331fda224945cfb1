import { cityMapping, type CityData } from 'city-timezones';
import ct from 'countries-and-timezones';
import { canadianProvince, zipZone } from './postal-codes';

/*
 * The time zone of a venue from its place as written (city, region, country, or a whole address), offline:
 * city-timezones (7,300 cities with their province, state code, country and IANA zone, from Natural Earth) and
 * countries-and-timezones (each country's zones and their offsets). No network and no guessing between
 * places: when the words fit cities in different zones and none stands out, the venue's zone stays unknown.
 */

export interface VenuePlace {
  city?: string | null;
  region?: string | null;
  country?: string | null;
  /** A whole address or place line ("1000 Broadway, Denver, CO 80203, USA"), read part by part. */
  address?: string | null;
}

/** Lower-case words without accents or punctuation, as the tables are looked up. */
const norm = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

// The postal codes of Canada's provinces and Australia's states and territories, as addresses write them
// ("London, ON", "Moncton, NB"). The table names them in full and has codes only for US states. One that is
// also a US state's (Western Australia's WA is Washington's) names the US state unless the country is named.
const REGION_CODES: Record<string, Record<string, string>> = {
  CA: {
    ab: 'alberta',
    bc: 'british columbia',
    mb: 'manitoba',
    nb: 'new brunswick',
    nl: 'newfoundland and labrador',
    ns: 'nova scotia',
    nt: 'northwest territories',
    nu: 'nunavut',
    on: 'ontario',
    pe: 'prince edward island',
    qc: 'quebec',
    sk: 'saskatchewan',
    yt: 'yukon',
  },
  AU: {
    act: 'australian capital territory',
    nsw: 'new south wales',
    nt: 'northern territory',
    qld: 'queensland',
    sa: 'south australia',
    tas: 'tasmania',
    vic: 'victoria',
    wa: 'western australia',
  },
};

/** A city's region code, as addresses write it, when the table has none (see REGION_CODES). */
function regionCodeOf(c: CityData): string | undefined {
  const codes = REGION_CODES[c.iso2];
  if (!codes || typeof c.province !== 'string') return undefined;
  const province = norm(c.province);
  return Object.keys(codes).find((code) => codes[code] === province);
}

// Names people write for countries that the tables spell otherwise.
const COUNTRY_ALIASES: Record<string, string> = {
  usa: 'US',
  'u s a': 'US',
  'u s': 'US',
  'united states': 'US',
  america: 'US',
  uk: 'GB',
  'u k': 'GB',
  'great britain': 'GB',
  britain: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  deutschland: 'DE',
  'the netherlands': 'NL',
  holland: 'NL',
  nederland: 'NL',
  espana: 'ES',
  italia: 'IT',
  osterreich: 'AT',
  schweiz: 'CH',
  suisse: 'CH',
  svizzera: 'CH',
  'south korea': 'KR',
  korea: 'KR',
  russia: 'RU',
  'czech republic': 'CZ',
  czechia: 'CZ',
  uae: 'AE',
};

// Short names people write for cities that the tables spell out in full ("Some bar in SF").
// A Map: the names looked up are the page's, and a plain object would answer 'constructor' with a function.
const CITY_ALIASES = new Map([
  ['sf', 'san francisco'],
  ['nyc', 'new york'],
]);

/**
 * The names a part of a place line may give for its city: the part itself, what follows its last "in"
 * ("Some bar in SF", "Rooftop in Lisbon") and the place a civic building is named after, each with its short
 * form spelled out.
 */
function cityNamesIn(part: string): string[] {
  const tail = /\bin ((?:\p{L}+ ?){1,3})$/u.exec(part)?.[1]?.trim();
  const civic = CIVIC_BUILDING.exec(part)?.[1]?.trim();
  return [part, ...(tail ? [tail] : []), ...(civic ? [civic] : [])].map((name) => CITY_ALIASES.get(name) ?? name);
}

// A civic building named after its place ("Rossford City Hall", "Wichita Public Library"): the place.
const CIVIC_BUILDING =
  /^((?:\p{L}+ ){1,3}?)(?:city hall|town hall|village hall|civic cent(?:er|re)|public library|county courthouse|municipal building|convention cent(?:er|re))$/u;

interface Tables {
  countries: Map<string, string>;
  /** The US states' two-letter codes, upper-case: a ZIP Code after one is a ZIP Code. */
  usStates: Set<string>;
  cities: Map<string, CityData[]>;
  regions: Map<string, CityData[]>;
  byCountry: Map<string, CityData[]>;
}

let tables: Tables | null = null;

// Built on first use (a few milliseconds), then shared by every page.
function load(): Tables {
  if (tables) return tables;
  const countries = new Map<string, string>(Object.entries(COUNTRY_ALIASES));
  for (const c of Object.values(ct.getAllCountries())) {
    countries.set(norm(c.name), c.id);
    countries.set(c.id.toLowerCase(), c.id);
  }
  const cities = new Map<string, CityData[]>();
  const regions = new Map<string, CityData[]>();
  const byCountry = new Map<string, CityData[]>();
  // Some names in the table are numbers or missing; they name nothing people write.
  const add = (map: Map<string, CityData[]>, key: unknown, c: CityData) => {
    if (typeof key !== 'string') return;
    const k = norm(key);
    if (!k) return;
    const list = map.get(k);
    if (list) {
      if (!list.includes(c)) list.push(c);
    } else map.set(k, [c]);
  };
  for (const c of cityMapping) {
    add(cities, c.city, c);
    add(cities, c.city_ascii, c);
    add(regions, c.province, c);
    add(regions, c.state_ansi, c);
    add(byCountry, c.iso2, c);
    if (typeof c.country === 'string' && !countries.has(norm(c.country))) countries.set(norm(c.country), c.iso2);
    if (typeof c.iso3 === 'string') countries.set(c.iso3.toLowerCase(), c.iso2);
  }
  for (const c of cityMapping) {
    const code = c.state_ansi === undefined ? regionCodeOf(c) : undefined;
    if (code && !regions.get(code)?.some((other) => other.iso2 === 'US')) add(regions, code, c);
  }
  const usStates = new Set(cityMapping.filter((c) => c.iso2 === 'US' && typeof c.state_ansi === 'string').map((c) => c.state_ansi!));
  tables = { countries, cities, regions, byCountry, usStates };
  return tables;
}

/** ISO 3166 alpha-2 code of a country written as a name or a code, or null. */
export function countryCode(written: string | null | undefined): string | null {
  if (!written) return null;
  return load().countries.get(norm(written)) ?? null;
}

/** Zones that keep the same clock all year (same offset and same DST offset) count as one. */
function sameClock(a: string, b: string): boolean {
  if (a === b) return true;
  const za = ct.getTimezone(a);
  const zb = ct.getTimezone(b);
  return !!za && !!zb && za.utcOffset === zb.utcOffset && za.dstOffset === zb.dstOffset;
}

/**
 * The zone of a set of candidate places: the zone they all share, else the zone of the largest place when it
 * is at least ten times larger than every place in another zone (Paris, France over Paris, Texas), else null.
 */
function zoneOf(candidates: CityData[]): string | null {
  if (candidates.length === 0) return null;
  const sorted = [...candidates].sort((a, b) => b.pop - a.pop);
  const top = sorted[0]!;
  const other = sorted.find((c) => !sameClock(c.timezone, top.timezone));
  if (!other) return top.timezone;
  return top.pop >= 10 * Math.max(other.pop, 1) ? top.timezone : null;
}

/** The zone of a country whose places all keep one clock (France, Japan; not the US or Brazil), else null. */
export function countryZone(code: string): string | null {
  const zones = ct.getCountry(code)?.timezones ?? [];
  if (zones.length === 0) return null;
  const first = zones[0]!;
  if (!zones.every((z) => sameClock(z, first))) return null;
  // The zone named after the country's largest city reads best (Europe/Amsterdam, not Europe/Brussels).
  const largest = [...(load().byCountry.get(code.toLowerCase()) ?? [])].sort((a, b) => b.pop - a.pop)[0];
  return largest && sameClock(largest.timezone, first) ? largest.timezone : first;
}

const inRegion = (c: CityData, region: string) =>
  (typeof c.province === 'string' && norm(c.province) === region) ||
  (typeof c.state_ansi === 'string' ? norm(c.state_ansi) === region : regionCodeOf(c) === region);

/** The parts of an address that can name a place: postal codes and house numbers removed. */
function addressParts(address: string): string[] {
  return address
    .split(/[,;\n|]+/)
    .map((part) =>
      norm(part)
        .replace(/\b[\p{L}]{0,2}\d[\p{L}\d]*\b/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter(Boolean);
}

/**
 * The IANA zone of a venue from its place as written, or null when the tables cannot tell. A two-letter word
 * at the end of an address is a country ("Berlin, DE") only when a city of that country is named; otherwise it
 * is read as a region ("Denver, CO" is Colorado, not Colombia; "Philadelphia, PA" Pennsylvania, not Panama).
 */
export function venueZone(place: VenuePlace): string | null {
  // A page's events mostly share a few venues; each place is looked up once (at most
  // 10,000 places of at most 1,000 characters kept, cleared when full).
  const key = `${place.city ?? ''}\u0000${place.region ?? ''}\u0000${place.country ?? ''}\u0000${place.address ?? ''}`;
  if (key.length > 1000) return lookUp(place);
  const known = zones.get(key);
  if (known !== undefined) return known;
  if (zones.size >= 10_000) zones.clear();
  const zone = lookUp(place);
  zones.set(key, zone);
  return zone;
}

const zones = new Map<string, string | null>();

function lookUp(place: VenuePlace): string | null {
  const t = load();
  const parts = place.address ? addressParts(place.address) : [];
  const named = countryCode(place.country);
  if (named) return postalZone(place, named) ?? zoneIn(place, parts, named, true);
  for (const part of [...parts].reverse()) {
    const code = t.countries.get(part);
    if (!code) continue;
    if (part.length !== 2) return postalZone(place, code) ?? zoneIn(place, parts, code, true);
    const zone = zoneIn(place, parts, code, false);
    if (zone) return zone;
    break;
  }
  return postalZone(place, null) ?? zoneIn(place, parts, null, true);
}

/**
 * The zone a postal code in the place names: a US ZIP Code (the table's own zone for it), else a Canadian
 * postal code's province. A ZIP Code is more exact than a city name, which several states share. Five digits
 * alone count in an address of the United States: its country named, or a US state as one of its parts
 * ("455 N Main, 67202, Wichita, KS", as JSON-LD's PostalAddress is joined).
 */
function postalZone(place: VenuePlace, country: string | null): string | null {
  const t = load();
  if (!place.address || (country && country !== 'US' && country !== 'CA')) return null;
  const statePart = [place.region, ...place.address.split(/[,;\n|]+/)].some((part) => {
    const written = part?.trim() ?? '';
    if (t.usStates.has(written)) return true;
    return written.length > 2 && (t.regions.get(norm(written)) ?? []).some((c) => c.iso2 === 'US');
  });
  const zip = zipZone(place.address, t.usStates, country === 'US' || (country === null && statePart));
  if (zip) return zip;
  if (country === 'US') return null;
  const province = canadianProvince(place.address);
  return province ? regionZone((t.regions.get(province) ?? []).filter((c) => c.iso2 === 'CA')) : null;
}

/** The zone of a venue within a country (or anywhere); the country's own zone only when `countryWide`. */
function zoneIn(place: VenuePlace, parts: string[], country: string | null, countryWide: boolean): string | null {
  const t = load();
  // A region written alone ("Colorado") or before a postal code ("CO 80203") names the cities it holds.
  // In a named country, its own region codes are read as its regions' names (WA in Australia).
  // Own codes only: the words are the page's, and the table's prototype would answer 'constructor'.
  const codes = country ? REGION_CODES[country] : undefined;
  const named = (r: string) => (codes && Object.hasOwn(codes, r) ? codes[r]! : r);
  const regionWords = [place.region, ...parts]
    .filter((r): r is string => !!r)
    .map(norm)
    .map(named);
  const known = (r: string) => (t.regions.get(r) ?? []).some((c) => !country || c.iso2 === country);
  const region =
    regionWords.find(known) ??
    regionWords
      .map((r) => r.split(' ')[0]!)
      .filter((w) => w.length === 2)
      .map(named)
      .find(known) ??
    null;
  const fits = (c: CityData) => (!country || c.iso2 === country) && (!region || inRegion(c, region));

  const cityNames = [place.city, ...parts]
    .filter((c): c is string => !!c)
    .map(norm)
    .flatMap(cityNamesIn);
  for (const name of cityNames) {
    const zone = zoneOf((t.cities.get(name) ?? []).filter(fits));
    if (zone) return zone;
  }
  if (!countryWide) return null;
  // A region without a known city: the clock most of its people keep.
  if (region) {
    const zone = regionZone((t.regions.get(region) ?? []).filter((c) => !country || c.iso2 === country));
    if (zone) return zone;
  }
  return country ? countryZone(country) : null;
}

/**
 * The clock kept by more than half the people of a region's places (the table's city populations), named by
 * its largest city's zone: Indiana keeps Indianapolis's Eastern time, Texas Central, Quebec Montreal's. Null
 * when no clock has a majority or the region has no places.
 */
function regionZone(places: CityData[]): string | null {
  const groups: { zone: string; people: number }[] = [];
  let total = 0;
  for (const c of [...places].sort((a, b) => b.pop - a.pop)) {
    const people = Math.max(c.pop, 1);
    total += people;
    const group = groups.find((g) => sameClock(g.zone, c.timezone));
    if (group) group.people += people;
    else groups.push({ zone: c.timezone, people });
  }
  const top = groups.sort((a, b) => b.people - a.people)[0];
  return top && top.people * 2 > total ? top.zone : null;
}

/** The zone most people of a US state keep, by its code or name ("KS", "kansas"); null when it names none. */
export function usStateZone(written: string): string | null {
  const t = load();
  const code = written.toUpperCase();
  const places =
    written.length === 2
      ? t.usStates.has(code)
        ? cityMapping.filter((c) => c.iso2 === 'US' && c.state_ansi === code)
        : []
      : (t.regions.get(norm(written)) ?? []).filter((c) => c.iso2 === 'US');
  return regionZone(places);
}

/** Whether the table holds a US city of that name. */
export function isUsCity(name: string): boolean {
  return (load().cities.get(norm(name)) ?? []).some((c) => c.iso2 === 'US');
}
