import type { Event } from '../contract/event';

/** A page's site as people say it: its host without "www.". */
export function siteOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
}

/**
 * How an event was checked, in words for a card, a digest, a webhook and a feed (docs/decisions/checked-events.md): "Checked on
 * example.org", "Corrected from example.org (the answer said Tue 3 Mar 2026, 18:30)", "Not confirmed", "From
 * example.org" for a page's own data; null when the event was not checked. `when` writes the model's start.
 */
export function verificationText(e: Pick<Event, 'verification'>, when: (iso: string) => string): string | null {
  const v = e.verification;
  if (!v) return null;
  const site = siteOf(v.source_url);
  switch (v.status) {
    case 'source':
      return site ? `From ${site}` : null;
    case 'confirmed':
      return `Checked on ${site ?? 'its page'}`;
    case 'corrected':
      return `Corrected from ${site ?? 'its page'}${v.model_starts_at ? ` (the answer said ${when(v.model_starts_at)})` : ''}`;
    case 'unconfirmed':
      return 'Not confirmed';
  }
}
