import { AsyncLocalStorage } from 'node:async_hooks';
import { Dispatcher } from 'undici';

/** Whether a request built under a gate may leave: true sends it, false (or a failure) never does. */
export type SendGate = Promise<boolean>;

const gates = new AsyncLocalStorage<SendGate>();

/**
 * Runs `start`, whose requests to Gemini (through createGemini's fetch, connections.ts) are built at once and
 * wait for `gate` at the last step, the hand-over to a connection: an ask's answer is made ready while its
 * admission is still being decided (decision 092), and leaves the moment it is admitted, or never.
 */
export function sentWhen<T>(gate: SendGate, start: () => T): T {
  return gates.run(gate, start);
}

/** The gate of the call this code runs for, if it has one. */
export const currentGate = (): SendGate | undefined => gates.getStore();

/** Whether a gate opened: false when it said no or failed. */
export const opened = (gate: SendGate): Promise<boolean> => gate.catch(() => false);

/** What a request whose gate stayed shut ends with, as an aborted request does. */
export const notSent = () => new DOMException('The request was not sent: its search was not admitted.', 'AbortError');

/** Ends a request its dispatcher will not send, through whichever of undici's handler interfaces it has. */
function failed(handler: Dispatcher.DispatchHandler, err: unknown): void {
  const error = err instanceof Error ? err : new Error(String(err));
  if (handler.onError) handler.onError(error);
  else handler.onResponseError?.(undefined as never, error);
}

/**
 * A dispatcher that hands a request made under a gate to `inner` only once the gate opens; the request is
 * fully built by then (the fetch's own steps ran), so only the write to the connection is left. A shut gate
 * fails the request before anything of it reaches a connection.
 */
export class GatedDispatcher extends Dispatcher {
  constructor(
    private readonly inner: Dispatcher,
    private readonly onSend: () => void = () => {},
  ) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const gate = currentGate();
    if (!gate) {
      this.onSend();
      return this.inner.dispatch(options, handler);
    }
    void opened(gate).then((open) => {
      if (!open) return failed(handler, notSent());
      this.onSend();
      try {
        this.inner.dispatch(options, handler);
      } catch (err) {
        failed(handler, err);
      }
    });
    return true;
  }

  override close(): Promise<void> {
    return this.inner.close();
  }

  override destroy(): Promise<void> {
    return this.inner.destroy();
  }
}
