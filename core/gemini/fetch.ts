import { Agent, Headers, Response, fetch as undiciFetch } from 'undici';

/** How long an idle connection to Gemini is kept for the next request; after that a request opens a new one. */
const IDLE_KEEP_MS = 60_000;

/**
 * What one reply from Gemini may carry. A real answer is tens of kilobytes (its longest streamed event, the last
 * one with the grounding metadata and Google's Search Suggestions, a few); these limits sit far above that and
 * far below what a process can hold: a reply past one is refused whole, never read on.
 */
export const REPLY_LIMITS = {
  /** Bytes of one reply's body, streamed or whole: 8 MiB. */
  replyBytes: 8 * 1024 * 1024,
  /** Bytes of one streamed event (an SSE `data:` line up to the blank line that ends it): 512 KiB. */
  eventBytes: 512 * 1024,
};

export type ReplyLimits = typeof REPLY_LIMITS;

/** A reply from Gemini that is refused rather than read on; `what` says what it was, for the user's sentence. */
export class ReplyRefused extends Error {
  override name = 'ReplyRefused';
  constructor(readonly what: string) {
    super(`Gemini's reply was refused: ${what}.`);
  }
}

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`);

// The SDK ends a streamed event at the first of these (processStreamResponse in @google/genai).
const LF = 0x0a;
const CR = 0x0d;
const LFLF = 0x0a0a;
const CRCR = 0x0d0d;
const CRLFCRLF = 0x0d0a0d0a;

/**
 * The reply's body as it arrives, ended with ReplyRefused past either limit. The official client looks for an
 * event's end by searching its whole buffer again at every chunk, which is quadratic in a line that never ends:
 * the event's length is bounded here, before the client sees it, counting each byte once.
 */
function withinLimits(limits: ReplyLimits, streamed: boolean): TransformStream<Uint8Array, Uint8Array> {
  let total = 0;
  let sinceEvent = 0;
  // The line-ending bytes just read, the last four (any other byte empties it).
  let endings = 0;
  return new TransformStream({
    transform(chunk, controller) {
      total += chunk.byteLength;
      if (total > limits.replyBytes) throw new ReplyRefused(`a reply over ${size(limits.replyBytes)}`);
      if (streamed) {
        for (let i = 0; i < chunk.length; i++) {
          const byte = chunk[i]!;
          if (byte === LF || byte === CR) {
            endings = ((endings << 8) | byte) >>> 0;
            const two = endings & 0xffff;
            if (two === LFLF || two === CRCR || endings === CRLFCRLF) {
              sinceEvent = 0;
              endings = 0;
              continue;
            }
          } else endings = 0;
          if (++sinceEvent > limits.eventBytes) throw new ReplyRefused(`a streamed line over ${size(limits.eventBytes)}`);
        }
      }
      controller.enqueue(chunk);
    },
  });
}

/**
 * The fetch the official Gemini client is given: undici's own fetch on undici's own Agent, both from the one
 * npm package, so the pair keeps working whichever undici a newer Node bundles for its global fetch. The Agent
 * sets no header or body timeout (undici's default is 300 s): how long a call may take is its caller's deadline
 * (ASK_IDLE_TIMEOUT_SECONDS, TIMER_RUN_TIMEOUT_SECONDS), given to the client as an abort signal, which also
 * ends the reading of a body already received.
 *
 * Every reply is held to `limits`, and asked for without content coding: one that comes encoded anyway (a
 * gzip body decodes to many times its size) is refused before a byte of it is decoded.
 */
export function geminiFetch(limits: ReplyLimits = REPLY_LIMITS): typeof fetch {
  const agent = new Agent({ keepAliveTimeout: IDLE_KEEP_MS, keepAliveMaxTimeout: IDLE_KEEP_MS, headersTimeout: 0, bodyTimeout: 0 });
  return (async (input: string | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers as ConstructorParameters<typeof Headers>[0]);
    headers.set('accept-encoding', 'identity');
    const signal = init.signal ?? undefined;
    const reply = await undiciFetch(input, { ...(init as object), headers, dispatcher: agent });
    const coding = reply.headers.get('content-encoding')?.trim().toLowerCase();
    if (coding && coding !== 'identity') {
      await reply.body?.cancel();
      throw new ReplyRefused(`a reply encoded as ${coding}, which was not asked for`);
    }
    if (!reply.body) return reply;
    const streamed = new URL(input).searchParams.get('alt') === 'sse';
    const body = (reply.body as unknown as ReadableStream<Uint8Array>).pipeThrough(
      withinLimits(limits, streamed),
      signal ? { signal } : {},
    );
    return new Response(body as never, { status: reply.status, statusText: reply.statusText, headers: reply.headers });
  }) as unknown as typeof fetch;
}
