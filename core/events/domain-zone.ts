import { countryZone, isUsCity, usStateZone, venueZone } from './venue-zone';

// Country-code domains sold for their letters, not their country (.io, .co, .tv, .fm, .me...): a page
// under one says nothing of where its events are.
const GENERIC_USE = new Set('ac ai am cc cd co fm gg gl im io is la ly me ms mu nu sh so st tk to tv vc ws'.split(' '));

// Domains whose letters are not the country's ISO 3166 code.
const DOMAIN_COUNTRY: Record<string, string> = { uk: 'GB' };

// Labels of US government hosts that name the kind of body, not its place (ci.wichita.ks.us, www.ks.gov).
const US_GOVERNMENT_WORDS = new Set(['www', 'ci', 'co', 'city', 'town', 'state', 'k12', 'county']);
const US_GOVERNMENT_PREFIX = /^(?:cityof|townof|villageof|countyof|townshipof)/;

/**
 * The zone of the country a page's address names by its country-code domain (wildundhund.de: Germany), when
 * that country keeps one clock; else null (.com, .io, .us, .ca, .br, .au). A page on a country's domain lists
 * that country's events far more often than not; docs/decisions/events-as-data.md uses this for floating times only, when the
 * event, its venue and the page's other events name no zone or offset, before falling back to the searcher.
 * A US government host names its state or city (usGovernmentZone); `pageZones` are the zones the page's other
 * venues gave, which tell a city-named host in which of several same-named cities it is.
 */
export function domainZone(url: string, pageZones: readonly string[] = []): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  const labels = host.split('.');
  const tld = labels.at(-1) ?? '';
  if (tld === 'gov' || tld === 'us') return usGovernmentZone(labels, pageZones);
  if (!/^[a-z]{2}$/.test(tld) || GENERIC_USE.has(tld)) return null;
  return countryZone(DOMAIN_COUNTRY[tld] ?? tld.toUpperCase());
}

/**
 * A US government host's place (docs/decisions/events-as-data.md): a state by its code or name (kdot.ks.gov, ny.gov, kansas.gov,
 * ci.wichita.ks.us), else a city by its name (wichita.gov, cityofchicago.gov), in the zone most of the
 * state's people keep or the city's. A city that several states share takes the zone the page's venues agree
 * on; a .us host that names no state (example.us) names nothing.
 */
function usGovernmentZone(labels: string[], pageZones: readonly string[]): string | null {
  // va.gov is Veterans Affairs, nationwide (Virginia is virginia.gov).
  if (labels.at(-1) === 'gov' && labels.at(-2) === 'va') return null;
  const words = labels.slice(0, -1).filter((l) => !US_GOVERNMENT_WORDS.has(l));
  const stateAt = words.findLastIndex((w) => usStateZone(w) !== null);
  // A .us host is a state's when its state comes just before the .us (ci.wichita.ks.us).
  if (labels.at(-1) === 'us' && (stateAt < 0 || stateAt !== words.length - 1)) return null;
  const state = stateAt >= 0 ? words[stateAt]! : null;
  const city = words
    .slice(0, stateAt >= 0 ? stateAt : words.length)
    .map((w) => w.replace(US_GOVERNMENT_PREFIX, ''))
    .filter(isUsCity)
    .at(-1);
  if (city) {
    const zone = venueZone({ city, region: state, country: 'US' });
    if (zone) return zone;
    if (!state && new Set(pageZones).size === 1) return pageZones[0]!;
  }
  return state ? usStateZone(state) : null;
}
