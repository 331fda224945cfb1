import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { GoogleGenAI } from '@google/genai';
import { parse } from 'yaml';

/** test/fixtures/gemini-recorded: real Gemini replies from public test suites (README.md there names each source). */
export const RECORDED_DIR = join(import.meta.dirname, '../fixtures/gemini-recorded');

/** One recorded HTTP reply of Gemini, as the bytes the client reads. */
export interface RecordedReply {
  status: number;
  contentType: string;
  body: Buffer;
  /** Each SSE frame's bytes, for a stream (to cut it after some of them); one element otherwise. */
  frames: Buffer[];
}

/**
 * The replies a fixture holds, in the order they were recorded:
 * - `*.json` (vercel/ai): one whole reply; `{error: {code}}` is that status's body.
 * - `*.chunks.txt` (vercel/ai): a stream, one recorded `data:` payload a line, framed as Google frames SSE.
 * - `*.yaml` (pydantic-ai's VCR cassettes): each interaction's reply: a stream's `body.string` as recorded,
 *   byte for byte; a whole reply's `parsed_body` (the cassette stores the JSON parsed) written back as JSON.
 */
export function recordedReplies(file: string): RecordedReply[] {
  const raw = readFileSync(join(RECORDED_DIR, file));
  if (file.endsWith('.chunks.txt')) {
    const frames = raw
      .toString('utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => Buffer.from(`${line.startsWith('data: ') ? line : `data: ${line}`}\r\n\r\n`));
    return [{ status: 200, contentType: 'text/event-stream', body: Buffer.concat(frames), frames }];
  }
  if (file.endsWith('.json')) {
    const code = (JSON.parse(raw.toString('utf8')) as { error?: { code?: number } }).error?.code ?? 200;
    return [{ status: code, contentType: 'application/json; charset=UTF-8', body: raw, frames: [raw] }];
  }
  const cassette = parse(raw.toString('utf8')) as { interactions: Interaction[] };
  return cassette.interactions.map(({ response }) => {
    const contentType = response.headers['content-type']?.[0] ?? 'application/json';
    const body =
      response.body?.string !== undefined ? Buffer.from(response.body.string) : Buffer.from(JSON.stringify(response.parsed_body));
    const frames = contentType.includes('event-stream') ? sseFrames(body) : [body];
    return { status: response.status.code, contentType, body, frames };
  });
}

interface Interaction {
  response: {
    status: { code: number };
    headers: Record<string, string[] | undefined>;
    body?: { string?: string };
    parsed_body?: unknown;
  };
}

function sseFrames(body: Buffer): Buffer[] {
  const text = body.toString('utf8');
  const frames: Buffer[] = [];
  let at = 0;
  for (let end = text.indexOf('\r\n\r\n', at); end !== -1; end = text.indexOf('\r\n\r\n', at)) {
    frames.push(Buffer.from(text.slice(at, end + 4)));
    at = end + 4;
  }
  if (at < text.length) frames.push(Buffer.from(text.slice(at)));
  return frames;
}

/** A request the replay server received. */
export interface ReceivedRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

/**
 * The error Gemini sends for a failure on its side (HTTP 500, status INTERNAL), with the sentence its API gives;
 * in a stream it comes as a frame of its own after the text so far.
 */
const INTERNAL_ERROR = {
  error: {
    code: 500,
    message: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
    status: 'INTERNAL',
  },
};

/**
 * A loopback server that answers each Gemini request with the next queued recorded reply, and the official
 * client pointed at it: the product's own code reads Google's recorded bytes exactly as it reads Google.
 * `cutAfterFrames` ends the connection after that many frames of a stream, as a broken network does;
 * `failAfterFrames` ends the stream after that many frames with Gemini's error frame for a 500 (INTERNAL_ERROR),
 * as Gemini ends a stream that fails on its side.
 */
export async function startReplay(): Promise<{
  gemini: GoogleGenAI;
  /** The server's origin, for a product configured with it (GEMINI_BASE_URL). */
  url: string;
  received: ReceivedRequest[];
  queue: (reply: RecordedReply, options?: { cutAfterFrames?: number; failAfterFrames?: number }) => void;
  close: () => Promise<void>;
}> {
  const pending: { reply: RecordedReply; cutAfterFrames?: number; failAfterFrames?: number }[] = [];
  const received: ReceivedRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    received.push({ method: req.method ?? '', path: req.url ?? '', body: body ? JSON.parse(body) : {} });
    const next = pending.shift();
    if (!next) {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"code":500,"message":"no recorded reply queued"}}');
      return;
    }
    const { reply, cutAfterFrames, failAfterFrames } = next;
    res.writeHead(reply.status, { 'content-type': reply.contentType });
    if (failAfterFrames !== undefined) {
      for (const frame of reply.frames.slice(0, failAfterFrames)) res.write(frame);
      res.end(`data: ${JSON.stringify(INTERNAL_ERROR)}\r\n\r\n`);
      return;
    }
    if (cutAfterFrames === undefined) {
      res.end(reply.body);
      return;
    }
    for (const frame of reply.frames.slice(0, cutAfterFrames)) {
      await new Promise<void>((resolve) => res.write(frame, () => resolve()));
    }
    // The socket is ended once the frames are on the wire, without the chunked body's last chunk: a broken stream.
    res.socket?.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const gemini = new GoogleGenAI({ apiKey: 'recorded', httpOptions: { baseUrl: `http://127.0.0.1:${port}` } });
  return {
    gemini,
    url: `http://127.0.0.1:${port}`,
    received,
    queue: (reply, options = {}) => pending.push({ reply, ...options }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}
