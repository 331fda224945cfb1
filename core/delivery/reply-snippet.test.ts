import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { REPLY_SNIPPET_BYTES, replySnippet } from './reply-snippet';

const body = (...chunks: string[]) => Readable.from(chunks.map((c) => Buffer.from(c)));

describe('replySnippet', () => {
  it('quotes a short refusal as it is, one line', async () => {
    expect(await replySnippet(body('no_service'))).toBe('no_service');
    expect(await replySnippet(body('{"message": "Unknown Webhook",\r\n "code": 10015}'))).toBe(
      '{"message": "Unknown Webhook", "code": 10015}',
    );
  });

  it('drops markup and control characters, and says nothing for an empty body', async () => {
    expect(await replySnippet(body('<html><head><title>502 Bad Gateway</title></head><body>\u0007nginx</body></html>'))).toBe(
      '502 Bad Gateway nginx',
    );
    expect(await replySnippet(body(''))).toBe('');
  });

  it('reads no more than its limit of a long reply and cuts the quote short', async () => {
    let pulled = 0;
    const endless = Readable.from(
      (function* () {
        while (true) {
          pulled++;
          yield Buffer.from('x'.repeat(100));
        }
      })(),
    );
    const quoted = await replySnippet(endless);
    expect(pulled * 100).toBeLessThanOrEqual(REPLY_SNIPPET_BYTES + 100);
    expect(quoted).toHaveLength(200);
    expect(quoted.endsWith('…')).toBe(true);
  });
});
