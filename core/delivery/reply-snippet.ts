/** How much of a receiver's refusal is read and quoted: enough for `no_service` or a short error page's words. */
export const REPLY_SNIPPET_BYTES = 300;
const QUOTED_CHARS = 200;

/**
 * The start of a receiver's reply body as one line of words, for the sentence that says why a message was
 * refused: at most REPLY_SNIPPET_BYTES read (the rest is left unread), markup and control characters dropped.
 * The caller's request deadline bounds the time. A reply that breaks off says what it said up to there.
 */
export async function replySnippet(body: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of body) {
      chunks.push(Buffer.from(chunk));
      bytes += chunk.length;
      if (bytes >= REPLY_SNIPPET_BYTES) break;
    }
  } catch {
    // Cut off or timed out: what arrived still counts.
  }
  const words = Buffer.concat(chunks)
    .subarray(0, REPLY_SNIPPET_BYTES)
    .toString('utf8')
    .replace(/<[^>]*>/g, ' ')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is dropped here.
    .replace(/[\u0000-\u001f\u007f\ufffd]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return words.length > QUOTED_CHARS ? `${words.slice(0, QUOTED_CHARS - 1)}…` : words;
}
