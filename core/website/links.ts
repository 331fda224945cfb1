/**
 * A link as an absolute http(s) address, resolved against `base` (the page's URL or its <base href>); anything
 * else (javascript:, data:, mailto:, unparsable) is no link a user can follow, so it is undefined.
 */
export function resolveLink(href: string | undefined, base: string): string | undefined {
  const raw = href?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
}
