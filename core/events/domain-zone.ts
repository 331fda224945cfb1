import { countryZone } from './venue-zone';

// Country-code domains sold for their letters, not their country (.io, .co, .tv, .fm, .me...): a page
// under one says nothing of where its events are.
const GENERIC_USE = new Set('ac ai am cc cd co fm gg gl im io is la ly me ms mu nu sh so st tk to tv vc ws'.split(' '));

// Domains whose letters are not the country's ISO 3166 code.
const DOMAIN_COUNTRY: Record<string, string> = { uk: 'GB' };

/**
 * The zone of the country a page's address names by its country-code domain (wildundhund.de: Germany), when
 * that country keeps one clock; else null (.com, .io, .us, .ca, .br, .au). A page on a country's domain lists
 * that country's events far more often than not; decision 057 uses this for floating times only, when the
 * event, its venue and the page's other events name no zone or offset, before falling back to the searcher.
 */
export function domainZone(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  const tld = host.split('.').at(-1) ?? '';
  if (!/^[a-z]{2}$/.test(tld) || GENERIC_USE.has(tld)) return null;
  return countryZone(DOMAIN_COUNTRY[tld] ?? tld.toUpperCase());
}
