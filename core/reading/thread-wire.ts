import type { ThreadAnswer } from './thread';

// How a step and its answer cross between the main thread and a reading thread: as bytes moved, not objects
// cloned. Apart from thread.ts so the main thread's side does not load the parsers (thread.ts warms them up).
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A page's body as UTF-8 bytes in a buffer of its own, to move into the thread (see ThreadTask.body). */
export const encodeBody = (body: string): Uint8Array => encoder.encode(body);

export const decodeBody = (bytes: Uint8Array): string => decoder.decode(bytes);

/** A thread's answer, serialised once in the thread: JSON as UTF-8 bytes. */
export const encodeAnswer = (answer: ThreadAnswer): Uint8Array => encoder.encode(JSON.stringify(answer));

/** The answer as it arrives on the main thread. */
export const decodeAnswer = (bytes: Uint8Array): ThreadAnswer => JSON.parse(decoder.decode(bytes)) as ThreadAnswer;
