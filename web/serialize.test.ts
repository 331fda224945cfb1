import { describe, expect, it } from 'vitest';
import { serializeForScript } from './serialize';

describe('serializeForScript', () => {
  it('cannot close the script element and round-trips', () => {
    const value = { q: '</script><script>alert(1)</script>', a: 'a & b <!-- c -->', l: 'x\u2028y\u2029z' };
    const out = serializeForScript(value);
    expect(out).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(out)).toEqual(value);
  });
});
