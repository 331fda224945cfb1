import { describe, expect, it } from 'vitest';
import { resolveFilters } from './resolve';

describe('resolveFilters', () => {
  it('refuses a date window outside the years events can have, with a sentence', () => {
    for (const [from, to] of [
      ['0000-01-01', '0000-01-02'],
      ['1900-06-01', '1900-06-30'],
      ['2200-12-31', '2201-01-01'],
    ] as const) {
      const check = resolveFilters({ window: { from, to } });
      expect(check, `${from}..${to}`).toEqual({
        ok: false,
        message: expect.stringMatching(/^The date window names the year \d{4}; choose dates from 1970 to 2200\.$/),
      });
    }
  });

  it('takes a window at either end of those years', () => {
    for (const [from, to] of [
      ['1970-01-01', '1970-01-31'],
      ['2200-12-01', '2200-12-31'],
    ] as const) {
      const check = resolveFilters({ window: { from, to } });
      expect(check).toEqual({ ok: true, filters: expect.objectContaining({ window: { from, to } }) });
    }
  });
});
