import { deserialize, serialize } from 'node:v8';
import type { ThreadAnswer } from './thread';

// How a step and its answer cross between the main thread and a reading thread: as bytes moved, not objects
// cloned. Apart from thread.ts so the main thread's side does not load the parsers (thread.ts warms them up).
/** What a reading thread tells the pool once its parsers have loaded and warmed up. */
export const THREAD_WARM = 'reading thread warm';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A page's body as UTF-8 bytes in a buffer shared with the reading threads (see ThreadTask.body): written once,
 * copied never. Written into a spare buffer `take` gives for its length when there is one: writing into fresh memory
 * costs the main thread far more than into memory written once, and fresh buffers' external memory draws garbage
 * collections. No thread may still read a spare (see ReadingPool's spareBodies).
 */
export function sharedBody(body: string, take: (length: number) => SharedArrayBuffer | undefined): Uint8Array {
  const length = Buffer.byteLength(body);
  const bytes = new Uint8Array(take(length) ?? new SharedArrayBuffer(length), 0, length);
  return bytes.subarray(0, encoder.encodeInto(body, bytes).written);
}

export const decodeBody = (bytes: Uint8Array): string => decoder.decode(bytes);

/**
 * A value serialised once with V8's structured serialiser (what postMessage itself uses), into bytes of their
 * own to be moved to another thread. Not JSON: V8's deserialiser reads a large answer back on the main thread in a
 * fraction of JSON.parse's time; and a value crosses as it is, as in-process (undefined kept, shared objects shared), not as JSON would remake it.
 */
export function encodeValue(value: unknown): Uint8Array {
  const bytes = serialize(value);
  // Moved by handing over its whole ArrayBuffer: one shared with other bytes is copied out first.
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

const decodeValue = <T>(bytes: Uint8Array): T => deserialize(bytes) as T;

/** A thread's answer, serialised once in the thread (see encodeValue). */
export const encodeAnswer = (answer: ThreadAnswer): Uint8Array => encodeValue(answer);

/** The answer as it arrives on the main thread. */
export const decodeAnswer = (bytes: Uint8Array): ThreadAnswer => decodeValue<ThreadAnswer>(bytes);
