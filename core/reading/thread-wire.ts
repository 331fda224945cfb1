import type { ThreadAnswer } from './thread';

// How a step and its answer cross between the main thread and a reading thread: as bytes moved, not objects
// cloned. Apart from thread.ts so the main thread's side does not load the parsers (thread.ts warms them up).
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A page's body as UTF-8 bytes in a buffer of its own, to move into the thread (see ThreadTask.body). */
export const encodeBody = (body: string): Uint8Array => encoder.encode(body);

/** The same, in a buffer shared by the threads that read one page in parts (see PagePart): written once, copied never. */
export function sharedBody(body: string): Uint8Array {
  const bytes = new Uint8Array(new SharedArrayBuffer(Buffer.byteLength(body)));
  return bytes.subarray(0, encoder.encodeInto(body, bytes).written);
}

export const decodeBody = (bytes: Uint8Array): string => decoder.decode(bytes);

/** A value serialised once, as JSON in UTF-8 bytes, to be moved to another thread. */
export const encodeJson = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));

export const decodeJson = <T>(bytes: Uint8Array): T => JSON.parse(decoder.decode(bytes)) as T;

/** A thread's answer, serialised once in the thread: JSON as UTF-8 bytes. */
export const encodeAnswer = (answer: ThreadAnswer): Uint8Array => encodeJson(answer);

/** The answer as it arrives on the main thread. */
export const decodeAnswer = (bytes: Uint8Array): ThreadAnswer => decodeJson<ThreadAnswer>(bytes);
