import { describe, expect, it } from 'vitest';
import type { Verification } from '../contract/event';
import { verificationText } from './verification-text';

const text = (v: Partial<Verification> & Pick<Verification, 'status'>) =>
  verificationText({ verification: { source_url: null, model_starts_at: null, ...v } }, (iso) => `[${iso}]`);

describe('how an event was checked, in words', () => {
  it('says why an event is not confirmed, in a few words', () => {
    expect(text({ status: 'unconfirmed', reason: 'robots' })).toBe('Not confirmed: robots.txt refused');
    expect(text({ status: 'unconfirmed', reason: 'unreachable' })).toBe('Not confirmed: page unreachable');
    expect(text({ status: 'unconfirmed', reason: 'not_listed' })).toBe('Not confirmed: the page does not list it');
    expect(text({ status: 'unconfirmed', reason: 'no_event_data' })).toBe('Not confirmed: the page gives no event data to check');
    expect(text({ status: 'unconfirmed', reason: 'no_page' })).toBe('Not confirmed: no page cited');
    // Checked before the reason was kept.
    expect(text({ status: 'unconfirmed' })).toBe('Not confirmed');
  });

  it('names the site the answer cited, and beside it the site its link led to', () => {
    expect(text({ status: 'confirmed', source_url: 'https://www.cited.example/e/1', landing_url: 'https://other.example/x' })).toBe(
      'Checked on cited.example (its link leads to other.example)',
    );
    expect(
      text({
        status: 'corrected',
        source_url: 'https://cited.example/e/1',
        landing_url: 'https://other.example/x',
        model_starts_at: '2027-03-02T19:00:00+01:00',
      }),
    ).toBe('Corrected from cited.example (its link leads to other.example; the answer said [2027-03-02T19:00:00+01:00])');
    expect(text({ status: 'confirmed', source_url: 'https://cited.example/e/1', landing_url: null })).toBe('Checked on cited.example');
  });
});
