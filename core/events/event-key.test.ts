import { describe, expect, it } from 'vitest';
import { canonicalUrl } from './canonical-url';
import { eventKey, keyDigest, normaliseTitle, titleKey } from './event-key';

describe('canonicalUrl', () => {
  it('treats real-world variants of one event page as one address', () => {
    const variants = [
      'https://ai-events.example/events/applied-ml-summit',
      'https://ai-events.example/events/applied-ml-summit/',
      'HTTPS://AI-Events.Example/events/applied-ml-summit',
      'http://www.ai-events.example/events/applied-ml-summit',
      'https://ai-events.example:443/events/applied-ml-summit#tickets',
      'https://ai-events.example/events/applied-ml-summit?utm_source=newsletter&utm_medium=email&utm_campaign=june',
      'https://ai-events.example/events/applied-ml-summit/?fbclid=IwAR2x&gclid=abc&mc_cid=1&mc_eid=2&ref=homepage',
      '  https://ai-events.example//events//applied-ml-summit  ',
    ];
    const canonical = new Set(variants.map(canonicalUrl));
    expect([...canonical]).toEqual(['https://ai-events.example/events/applied-ml-summit']);
  });

  it('keeps what tells pages apart: path case, real parameters (sorted), other ports', () => {
    expect(canonicalUrl('https://meetup.example/Group/events/301?b=2&a=1&utm_term=x')).toBe(
      'https://meetup.example/Group/events/301?a=1&b=2',
    );
    expect(canonicalUrl('https://meetup.example/group/events/301')).not.toBe(canonicalUrl('https://meetup.example/group/events/302'));
    expect(canonicalUrl('http://127.0.0.1:8090/sites/x.html')).toBe('https://127.0.0.1:8090/sites/x.html');
    expect(canonicalUrl('https://example.com/')).toBe('https://example.com');
  });

  it('is null for what is no event page', () => {
    for (const bad of [null, '', 'not a url', 'mailto:a@b.example', 'javascript:alert(1)', 'ftp://x.example/a']) {
      expect(canonicalUrl(bad)).toBeNull();
    }
    expect(canonicalUrl('https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQ')).toBeNull();
  });
});

describe('event keys', () => {
  it('uses the canonical link when there is one', () => {
    const a = eventKey({
      title: 'Summit',
      starts_at: '2026-06-18T09:00:00+02:00',
      city: 'Berlin',
      url: 'https://x.example/s/?utm_source=a',
    });
    const b = eventKey({ title: 'Other words', starts_at: null, city: null, url: 'HTTPS://X.example/s#top' });
    expect(a).toBe('url:https://x.example/s');
    expect(b).toBe(a);
  });

  it('else normalises title, local date and city (case, accents, punctuation, whitespace, year)', () => {
    const base = titleKey({ title: 'Applied ML Summit Berlin 2026', starts_at: '2026-06-18T09:00:00+02:00', city: 'Berlin' });
    expect(base).toBe('event:applied ml summit berlin|2026-06-18|berlin');
    expect(titleKey({ title: '  applied   ML summit – Berlin ', starts_at: '2026-06-18T09:00:00+02:00', city: ' BERLIN ' })).toBe(base);
    expect(titleKey({ title: 'Applied ML Summit Berlin', starts_at: '2026-06-18', city: 'berlin' })).toBe(base);
    expect(normaliseTitle('Café Ünïcode & Friends (cancelled)')).toBe('cafe unicode and friends');
    expect(titleKey({ title: 'Applied ML Summit Berlin', starts_at: '2026-06-19T09:00:00+02:00', city: 'Berlin' })).not.toBe(base);
    expect(titleKey({ title: 'Applied ML Summit Berlin', starts_at: '2026-06-18T09:00:00+02:00', city: 'Munich' })).not.toBe(base);
  });

  it('digests keys into stable, distinct UIDs', () => {
    expect(keyDigest('url:https://x.example/s')).toBe(keyDigest('url:https://x.example/s'));
    expect(keyDigest('url:https://x.example/s')).not.toBe(keyDigest('url:https://x.example/t'));
    expect(keyDigest('a')).toMatch(/^[0-9a-f]{28}$/);
  });
});
