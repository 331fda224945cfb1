import { AsyncLocalStorage } from 'node:async_hooks';

/** Whether a request built under a gate may leave: true sends it, false (or a failure) never does. */
export type SendGate = Promise<boolean>;

const gates = new AsyncLocalStorage<SendGate>();

/**
 * Runs `start`, whose requests to Gemini (through createGemini's fetch, connections.ts) wait for `gate` before
 * they leave: an ask's answer is built while its admission is still being decided (decision 092), and leaves
 * the moment it is admitted, or never.
 */
export function sentWhen<T>(gate: SendGate, start: () => T): T {
  return gates.run(gate, start);
}

/**
 * Waits for the gate of the call this request belongs to, if it has one. Throws an AbortError, as an aborted
 * request does, when the gate says the request must not leave.
 */
export async function passGate(): Promise<void> {
  const gate = gates.getStore();
  if (!gate) return;
  if (!(await gate.catch(() => false))) throw new DOMException('The request was not sent: its search was not admitted.', 'AbortError');
}
