/**
 * Why a message could not be sent. `message` is a sentence for the timer listing; `retryable` says a later
 * attempt may succeed (network, timeouts, 5xx, 429), which the deliver job turns into a BullMQ retry.
 */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  constructor(
    message: string,
    readonly retryable: boolean,
    options: { cause?: unknown; retryAfterMs?: number | null } = {},
  ) {
    super(message, { cause: options.cause });
    this.retryAfterMs = options.retryAfterMs ?? null;
  }

  /** How long the receiver asked us to wait before the next attempt (a 429's Retry-After), when it said. */
  readonly retryAfterMs: number | null;
}
