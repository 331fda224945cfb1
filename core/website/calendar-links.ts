/**
 * The calendar a link names, as written: `<link rel="alternate" type="text/calendar" href>`, an `<a>` whose
 * address ends in .ics or whose type is text/calendar, or any webcal: link (webcal is https with a calendar
 * app's scheme). The caller resolves it against the page.
 */
export function calendarLinkOf(tag: string, attribs: Record<string, string>): string | undefined {
  const href = attribs.href?.trim();
  if (!href) return undefined;
  const type = attribs.type?.trim().toLowerCase();
  if (/^webcals?:/i.test(href)) return href;
  if (tag === 'link') {
    const rels = (attribs.rel ?? '').toLowerCase().split(/\s+/);
    return rels.includes('alternate') && type === 'text/calendar' ? href : undefined;
  }
  if (type === 'text/calendar') return href;
  const path = href.split(/[?#]/, 1)[0]!;
  return /\.(?:ics|ical|ifb)$/i.test(path) ? href : undefined;
}

/**
 * Whether a calendar link stays on the page's site: the same host, or one a subdomain of the other once a
 * leading www. is set aside (example.org, www.example.org and calendar.example.org are one site). Other
 * sites' calendars are not followed: the user named this site, not the ones it links to.
 */
export function sameSite(link: string, page: string): boolean {
  const host = (u: string) => new URL(u).hostname.toLowerCase().replace(/^www\./, '');
  const a = host(link);
  const b = host(page);
  // The shorter name must still be a site's name, not a bare top-level domain.
  return a === b || (b.includes('.') && a.endsWith(`.${b}`)) || (a.includes('.') && b.endsWith(`.${a}`));
}
