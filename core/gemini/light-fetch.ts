import { type Dispatcher, Headers, Response } from 'undici';

// A reply's body is held up to this many chunks before its connection is paused until the client reads on.
const HELD_CHUNKS = 16;
// Codings the Fetch standard decodes; never asked for here, but decoded when a server (a proxy) sends them anyway.
const DECODED = new Set(['gzip', 'deflate']);

/** A request's headers as undici's dispatcher takes them, from any form fetch accepts. */
function headerRecord(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!init) return out;
  const pairs: Iterable<[string, string]> =
    init instanceof globalThis.Headers || init instanceof Headers
      ? (init as globalThis.Headers)
      : Array.isArray(init)
        ? (init as [string, string][])
        : Object.entries(init as Record<string, string>);
  for (const [name, value] of pairs) out[name.toLowerCase()] = value;
  return out;
}

/** A reply's headers as a Headers object, each repeated header kept. */
function replyHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}

const asError = (reason: unknown) => (reason instanceof Error ? reason : new Error(String(reason)));

/**
 * The fetch the official Gemini client is given (createGemini): its request dispatched straight onto
 * `dispatcher`'s connections and the reply handed back as a Response whose body streams as it arrives. The
 * client asks for one URL with a string body and reads the status, the headers and the body, so the Fetch
 * standard's other steps (its request and header objects, modes, redirects, a stream for the request body, the
 * response's filtering) are work each request paid for nothing (decision 095). It behaves as fetch does where
 * the client looks: a request that cannot reach the server rejects with a TypeError ("fetch failed", the cause
 * beside it), an aborted one with the signal's reason, before or during the reply. Anything else (a body that
 * is not a string, a Request) goes through the global fetch on the same dispatcher.
 */
export function lightFetchOver(dispatcher: Dispatcher): typeof fetch {
  const viaFetch = (input: string | URL | Request, init?: RequestInit) => fetch(input, { ...init, dispatcher } as RequestInit);
  return ((input: string | URL | Request, init: RequestInit = {}) => {
    if (!(typeof input === 'string' || input instanceof URL) || (init.body != null && typeof init.body !== 'string')) {
      return viaFetch(input, init);
    }
    return new Promise<globalThis.Response>((resolve, reject) => {
      const url = new URL(input);
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason);
      let body!: ReadableStreamDefaultController<Uint8Array>;
      let abortRequest: ((reason: unknown) => void) | null = null;
      let replied = false;
      // Aborted while it still waits for a connection (or its send gate), fetch rejects at once; the request is
      // dropped when its turn comes (onRequestStart).
      const onAbort = () => (abortRequest ? abortRequest(signal?.reason) : reject(signal?.reason));
      signal?.addEventListener('abort', onAbort, { once: true });
      const settled = () => signal?.removeEventListener('abort', onAbort);
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
          headers: headerRecord(init.headers),
          body: (init.body as string | undefined) ?? null,
        },
        {
          onRequestStart(controller) {
            abortRequest = (reason) => controller.abort(asError(reason));
            if (signal?.aborted) abortRequest(signal.reason);
          },
          onResponseStart(controller, status, headers, statusText) {
            const stream = new ReadableStream<Uint8Array>(
              {
                start: (c) => {
                  body = c;
                },
                pull: () => controller.resume(),
                cancel: (reason) => controller.abort(asError(reason)),
              },
              { highWaterMark: HELD_CHUNKS },
            );
            const reply = replyHeaders(headers);
            const encoding = reply.get('content-encoding')?.trim().toLowerCase();
            const decoded =
              encoding && DECODED.has(encoding)
                ? stream.pipeThrough(
                    new DecompressionStream(encoding as CompressionFormat) as unknown as TransformStream<Uint8Array, Uint8Array>,
                  )
                : stream;
            replied = true;
            resolve(new Response(decoded as never, { status, statusText, headers: reply }) as unknown as globalThis.Response);
          },
          onResponseData(controller, chunk) {
            body.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            if ((body.desiredSize ?? 1) <= 0) controller.pause();
          },
          onResponseEnd() {
            settled();
            body.close();
          },
          onResponseError(_controller, err) {
            settled();
            const failure = signal?.aborted ? signal.reason : err;
            if (replied) body.error(failure);
            else reject(signal?.aborted ? failure : new TypeError('fetch failed', { cause: err }));
          },
        },
      );
    });
  }) as typeof fetch;
}
