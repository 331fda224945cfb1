/**
 * Why a message could not be sent. `message` is a sentence for the timer listing; `retryable` says a later
 * attempt may succeed (network, timeouts, 5xx, 429), which the deliver job turns into a BullMQ retry.
 */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  constructor(
    message: string,
    readonly retryable: boolean,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}
