/** Helpers for POST /api/ask tests: a request as the page sends it, and a reader that timestamps chunks. */
export function ask(url: string, cookie: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(`${url}/api/ask`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', origin: url },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal,
  });
}

export interface Arrival {
  at: number;
  text: string;
}

/** Reads a streamed body to the end, noting when each piece arrived. */
export async function readChunks(res: Response): Promise<Arrival[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const arrivals: Arrival[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    arrivals.push({ at: Date.now(), text: decoder.decode(value, { stream: true }) });
  }
  return arrivals;
}
