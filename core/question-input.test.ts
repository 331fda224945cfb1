import { describe, expect, it } from 'vitest';
import { checkQuestion } from './question-input';

const check = (web: unknown) => checkQuestion('AI meetups', web, 'Type a question.');

describe('checkQuestion', () => {
  it('trims the question and refuses an empty one with the given sentence', () => {
    expect(checkQuestion('  Jazz in Porto  ', '', 'Type a question.')).toEqual({ ok: true, ques: 'Jazz in Porto', web: '' });
    expect(checkQuestion('   ', '', 'Type a question.')).toEqual({ ok: false, message: 'Type a question.' });
  });

  it('reads an address typed without a scheme as https', () => {
    expect(check('example.com/events')).toMatchObject({ ok: true, web: 'https://example.com/events' });
    expect(check(' www.meetup.com ')).toMatchObject({ ok: true, web: 'https://www.meetup.com' });
    expect(check('events.example.org:8443/list?city=berlin')).toMatchObject({
      ok: true,
      web: 'https://events.example.org:8443/list?city=berlin',
    });
    expect(check('http://example.com')).toMatchObject({ ok: true, web: 'http://example.com' });
    expect(check('example.com/go?to=https://other.example')).toMatchObject({
      ok: true,
      web: 'https://example.com/go?to=https://other.example',
    });
  });

  it('refuses what is not a web address, with a sentence', () => {
    for (const web of ['ftp://example.com/file', 'file:///etc/passwd', 'not a website', 'localhost', 'https://user:pw@example.com/']) {
      const result = check(web);
      expect(result.ok, web).toBe(false);
      if (!result.ok) expect(result.message).toMatch(/\.$/);
    }
    expect(check(42)).toEqual({ ok: false, message: 'The website must be text: a web address or nothing.' });
  });
});
