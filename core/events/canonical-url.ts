/** Query parameters that say how someone arrived, never which page: dropped so shared links compare equal. */
const TRACKING = new Set([
  'fbclid',
  'gclid',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'yclid',
  'igshid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'ref',
  'ref_src',
  'ref_url',
  'referrer',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'spm',
  'si',
]);
const TRACKING_PREFIXES = ['utm_', 'mc_', 'pk_', 'hsa_', 'oly_'];

/**
 * Hosts whose links stand for a search result, not an event page (Gemini's grounding redirects): such a URL
 * is no event's identity.
 */
const REDIRECTORS = [/(^|\.)vertexaisearch\.cloud\.google\.com$/, /^www\.google\.[a-z.]+$/];

/**
 * The canonical form of an event link: http(s) only; scheme and host lower-cased, `www.` and a default port
 * dropped; tracking parameters and the fragment dropped; the remaining parameters sorted; one trailing slash
 * and repeated slashes removed. Null for anything that is not a usable web address.
 */
export function canonicalUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = url.hostname.replace(/\.$/, '').replace(/^www\./, '');
  if (!host || REDIRECTORS.some((re) => re.test(url.hostname))) return null;
  const params = [...url.searchParams].filter(([k]) => {
    const name = k.toLowerCase();
    return !TRACKING.has(name) && !TRACKING_PREFIXES.some((p) => name.startsWith(p));
  });
  params.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  let path = url.pathname.replace(/\/{2,}/g, '/');
  if (path.length > 1) path = path.replace(/\/$/, '');
  // Both schemes serve the same page on nearly every site; the key must not split an event over them.
  const port = url.port ? `:${url.port}` : '';
  return `https://${host}${port}${path === '/' ? '' : path}${query}`;
}
