import { describe, expect, it } from 'vitest';
import { LandingPages, ReadByAnotherLink } from './landing-pages';

describe('the addresses one check has reached', () => {
  it('lets the first fetch of an address read it and hands its reading to the others', async () => {
    const landings = new LandingPages<string>();
    const first = landings.claim('https://example.org/event');
    let waiting: Promise<string | null> | null = null;
    try {
      landings.claim('https://example.org/event');
    } catch (err) {
      expect(err).toBeInstanceOf(ReadByAnotherLink);
      waiting = (err as ReadByAnotherLink<string>).page;
    }
    expect(waiting).not.toBeNull();
    first.settle('the page read once');
    expect(await waiting).toBe('the page read once');
  });

  it('claims other addresses freely and gives null when the first fetch failed', async () => {
    const landings = new LandingPages<string>();
    const a = landings.claim('https://example.org/a');
    expect(() => landings.claim('https://example.org/b')).not.toThrow();
    a.settle(null);
    const again = (() => {
      try {
        landings.claim('https://example.org/a');
        return null;
      } catch (err) {
        return (err as ReadByAnotherLink<string>).page;
      }
    })();
    expect(await again).toBeNull();
  });
});
