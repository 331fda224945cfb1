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

  it('refuses control characters: any in the website, all but tab and line breaks in the question', () => {
    for (const ques of ['AI\u0000events', 'AI\u0008events', 'AI\u001bevents', 'AI\u007fevents']) {
      expect(checkQuestion(ques, '', 'Type a question.')).toEqual({
        ok: false,
        message: 'The question contains an invisible control character (such as a NUL byte). Please retype it as plain text.',
      });
    }
    expect(checkQuestion('AI\tmeetups\r\nin Berlin\n', '', 'Type a question.')).toMatchObject({
      ok: true,
      ques: 'AI\tmeetups\r\nin Berlin',
    });
    for (const web of ['https://example.com/\u0000', 'https://exa\tmple.com/', 'example.com/\nevents']) {
      expect(check(web)).toEqual({
        ok: false,
        message: expect.stringMatching(/^The website address contains an invisible control character/),
      });
    }
  });
});
