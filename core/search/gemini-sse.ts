import { STATUS_CODES } from 'node:http';
import { ApiError, type Content, type ThinkingConfig, type Tool } from '@google/genai';
import { Agent, request } from 'undici';

/** Where streamGenerateContent is sent: `GEMINI_BASE_URL` (Google's when unset) and the key. */
export interface GeminiEndpoint {
  apiKey: string;
  baseUrl?: string;
}

/** The REST body of one generateContent request (the fields the answer stream sends). */
export interface StreamRequestBody {
  contents: Content[];
  systemInstruction?: Content;
  generationConfig?: { thinkingConfig?: ThinkingConfig };
  tools?: Tool[];
}

/** One streamed GenerateContentResponse as the REST API sends it: the fields an answer reads. */
export interface StreamChunk {
  candidates?: {
    content?: { parts?: { text?: string; thought?: boolean }[] };
    finishReason?: string;
    groundingMetadata?: { groundingChunks?: { web?: { uri?: string; title?: string } }[] };
  }[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number };
}

// What @google/genai uses for the Gemini API, so GEMINI_BASE_URL means the same here as for the client.
const GOOGLE_BASE_URL = 'https://generativelanguage.googleapis.com';
const API_VERSION = 'v1beta';
// One pool of connections per process. No header or body timeout, as @google/genai sets: a model may think a
// long while before its first chunk, and the caller's signal ends a request nobody waits for.
const agent = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

function streamUrl(endpoint: GeminiEndpoint, model: string): string {
  const base = (endpoint.baseUrl ?? GOOGLE_BASE_URL).replace(/\/$/, '');
  const name = model.startsWith('models/') ? model : `models/${model}`;
  return `${base}/${API_VERSION}/${name}:streamGenerateContent?alt=sse`;
}

/** An error reply as @google/genai reports it (ApiError, message = the JSON body), so callers map it the same. */
async function refusal(status: number, contentType: string, body: { text(): Promise<string> }): Promise<ApiError> {
  const text = await body.text();
  let parsed: unknown;
  if (contentType.includes('application/json')) {
    try {
      parsed = JSON.parse(text);
    } catch {}
  }
  const errorBody = parsed ?? { error: { message: text, code: status, status: STATUS_CODES[status] ?? '' } };
  return new ApiError({ message: JSON.stringify(errorBody), status });
}

/** An `{error: {code, status}}` event inside an ok stream (Google's way to fail mid-answer), as an ApiError. */
function streamedError(chunk: unknown): ApiError | null {
  if (chunk === null || typeof chunk !== 'object' || !('error' in chunk)) return null;
  const error = (chunk as { error: unknown }).error;
  if (error === null || typeof error !== 'object') return null;
  const { code, status } = error as { code?: unknown; status?: unknown };
  if (typeof code !== 'number' || code < 400 || code >= 600) return null;
  return new ApiError({ message: `got status: ${status}. ${JSON.stringify(chunk)}`, status: code });
}

// Server-sent events end with a blank line; Google sends CRLF, a proxy may send LF.
const EVENT_END = /\r\n\r\n|\n\n|\r\r/;

/** Reads the SSE body: one parsed JSON object per `data:` event, in order; throws ApiError for an error event. */
async function* events(body: AsyncIterable<string>): AsyncGenerator<StreamChunk> {
  let buffer = '';
  for await (const text of body) {
    buffer += text;
    for (let end = EVENT_END.exec(buffer); end; end = EVENT_END.exec(buffer)) {
      const event = buffer.slice(0, end.index).trim();
      buffer = buffer.slice(end.index + end[0].length);
      if (!event.startsWith('data:')) continue;
      const chunk: unknown = JSON.parse(event.slice('data:'.length));
      const failed = streamedError(chunk);
      if (failed) throw failed;
      yield chunk as StreamChunk;
    }
  }
  if (buffer.trim()) throw streamedError(safeJson(buffer.trim())) ?? new Error('Incomplete JSON segment at the end');
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Starts one streamGenerateContent request (the REST call @google/genai's generateContentStream makes) and
 * resolves once Gemini accepted it, with its chunks to iterate; a refusal rejects with the ApiError the SDK
 * would throw. The SDK is left out of this one call because it turns every chunk into a fetch Response and
 * back: for the answer stream, the hottest path of an ask, that was a quarter of the api's CPU (decision 024).
 */
export async function streamGenerateContent(
  endpoint: GeminiEndpoint,
  model: string,
  body: StreamRequestBody,
  signal?: AbortSignal,
): Promise<AsyncIterable<StreamChunk>> {
  const res = await request(streamUrl(endpoint, model), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': endpoint.apiKey },
    body: JSON.stringify(body),
    signal,
    dispatcher: agent,
  });
  if (res.statusCode < 200 || res.statusCode >= 300) {
    throw await refusal(res.statusCode, String(res.headers['content-type'] ?? ''), res.body);
  }
  res.body.setEncoding('utf8');
  return events(res.body);
}
