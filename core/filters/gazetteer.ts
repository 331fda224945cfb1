import { cityMapping, type CityData } from 'city-timezones';

/*
 * Places to coordinates, offline: city-timezones ships 7,300 cities (Natural Earth) with latitude, longitude,
 * population and country, already a dependency for venue zones. No geocoding service is ever called: a place
 * these tables do not know stays unknown (docs/decisions/timers-in-words-and-filters.md).
 */

export interface KnownPlace {
  name: string;
  lat: number;
  lng: number;
  /** ISO 3166 alpha-2. */
  country: string;
  /**
   * The radius of the city's own area, estimated from its population (the tables have no areas): "within
   * 20 km of Berlin" counts from the edge of Berlin, not from one point in its centre (docs/decisions/timers-in-words-and-filters.md).
   */
  extentKm: number;
}

/** People per km² of a city's area, about that of Berlin (4,100), Munich (4,700) or Potsdam (1,000). */
const PEOPLE_PER_KM2 = 4000;

const norm = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

// The tables spell cities in English; people writing German (or the city's own language) often do not.
const EXONYMS: Record<string, string> = {
  munchen: 'munich',
  koln: 'cologne',
  wien: 'vienna',
  zurich: 'zurich',
  genf: 'geneva',
  prag: 'prague',
  warschau: 'warsaw',
  rom: 'rome',
  mailand: 'milan',
  venedig: 'venice',
  neapel: 'naples',
  lissabon: 'lisbon',
  brussel: 'brussels',
  bruxelles: 'brussels',
  kopenhagen: 'copenhagen',
  moskau: 'moscow',
  athen: 'athens',
  nurnberg: 'nuremberg',
  hannover: 'hanover',
  'frankfurt am main': 'frankfurt',
  'frankfurt a m': 'frankfurt',
  sf: 'san francisco',
  nyc: 'new york',
  'new york city': 'new york',
};

let byName: Map<string, CityData[]> | null = null;

function table(): Map<string, CityData[]> {
  if (byName) return byName;
  byName = new Map();
  for (const c of cityMapping) {
    for (const name of new Set([norm(c.city), norm(c.city_ascii)])) {
      const list = byName.get(name) ?? [];
      list.push(c);
      byName.set(name, list);
    }
  }
  // The most populous first: "Frankfurt" is Frankfurt am Main, not Frankfurt (Oder), unless told otherwise.
  for (const list of byName.values()) list.sort((a, b) => b.pop - a.pop);
  return byName;
}

const toPlace = (c: CityData): KnownPlace => ({
  name: c.city,
  lat: c.lat,
  lng: c.lng,
  country: c.iso2,
  extentKm: Math.sqrt(c.pop / PEOPLE_PER_KM2 / Math.PI),
});

/**
 * A city by its name as written ("Berlin", "München", "Potsdam, Germany", "10115 Berlin"); with `near`, a
 * name shared by several cities takes the one in that country first. Null when no part names a known city.
 */
export function findPlace(written: string, near?: { country: string }): KnownPlace | null {
  const parts = written
    .split(/[,;/|()]/)
    .map((p) =>
      norm(p)
        .replace(/\b\d{4,5}\b/g, '')
        .trim(),
    )
    .filter(Boolean);
  for (const part of parts) {
    const name = EXONYMS[part] ?? part;
    const matches = table().get(name);
    if (!matches?.length) continue;
    const best = (near && matches.find((c) => c.iso2 === near.country)) ?? matches[0]!;
    return toPlace(best);
  }
  return null;
}

const EARTH_RADIUS_KM = 6371;

/** Great-circle distance in km (haversine). */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
