import type { Event, UnconfirmedReason } from '../contract/event';

/** A page's site as people say it: its host without "www.". */
export function siteOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
}

/** Why an event is not confirmed, in a few words after "Not confirmed: ". */
const WHY_NOT: Record<UnconfirmedReason, string> = {
  not_listed: 'the page does not list it',
  no_event_data: 'the page gives no event data to check',
  robots: 'robots.txt refused',
  unreachable: 'page unreachable',
  no_page: 'no page cited',
};

/**
 * How an event was checked, in words for a card, a digest, a webhook and a feed (docs/decisions/checked-events.md): "Checked on
 * example.org", "Corrected from example.org (the answer said Tue 3 Mar 2026, 18:30)", "Not confirmed: the page
 * does not list it" (or "Not confirmed" for an event checked before it said why), "From example.org" for a page's
 * own data; null when the event was not checked. A cited link that led to another site names that site beside
 * the cited one: "Checked on cited.example (its link leads to other.example)". `when` writes the model's start.
 */
export function verificationText(e: Pick<Event, 'verification'>, when: (iso: string) => string): string | null {
  const v = e.verification;
  if (!v) return null;
  const site = siteOf(v.source_url);
  const landing = siteOf(v.landing_url ?? null);
  const leads = landing && landing !== site ? `its link leads to ${landing}` : null;
  const said = v.model_starts_at ? `the answer said ${when(v.model_starts_at)}` : null;
  const aside = (...parts: (string | null)[]) => {
    const kept = parts.filter((p) => p !== null);
    return kept.length > 0 ? ` (${kept.join('; ')})` : '';
  };
  switch (v.status) {
    case 'source':
      return site ? `From ${site}` : null;
    case 'confirmed':
      return `Checked on ${site ?? 'its page'}${aside(leads)}`;
    case 'corrected':
      return `Corrected from ${site ?? 'its page'}${aside(leads, said)}`;
    case 'unconfirmed':
      return v.reason ? `Not confirmed: ${WHY_NOT[v.reason]}` : 'Not confirmed';
  }
}
