import type { Logger } from '../logger';
import type { RedisClient } from '../redis/client';
import type { RedisHealth } from '../redis/health';
import { proofSessionId } from './session-proof';

/** What a process's session proofs need to know about sessions ended anywhere (docs/decisions/sign-in-and-sessions.md). */
export interface RevocationWatch {
  /**
   * True while this process hears every revocation as it is published: its subscription is up and its
   * connection answered a health check moments ago.
   */
  readonly live: boolean;
  /**
   * Calls `listener` with the proof session ids of each revocation, and with `null` whenever the subscription
   * (re)starts, when any revocation may have been missed.
   */
  onRevoked: (listener: (sessionIds: readonly string[] | null) => void) => void;
}

export interface SessionRevocations extends RevocationWatch {
  /**
   * Makes every api process refuse proofs of these sessions (their `token_hash`es): this process at once, the
   * others when Redis delivers the message. Call it after the rows are deleted, so a process that misses the
   * message and asks Postgres finds them gone.
   */
  revoke: (tokenHashes: readonly string[]) => Promise<void>;
  /** Resolves once the subscription is up (the first time); proofs are remembered only from then on. */
  whenLive: () => Promise<void>;
  close: () => Promise<void>;
}

const channelOf = (prefix: string) => `${prefix}:session-revocations`;

/**
 * Tells every api process to refuse proofs of these sessions (their `token_hash`es); rejects when Redis did not
 * take the message. For a process that does not listen itself (the operator's `cli/end-sessions.ts`).
 */
export async function announceRevocation(publisher: RedisClient, prefix: string, tokenHashes: readonly string[]): Promise<void> {
  if (tokenHashes.length === 0) return;
  await publisher.publish(channelOf(prefix), tokenHashes.map(proofSessionId).join(','));
}

/**
 * Revocations over Redis pub/sub. `subscriber` is a connection of its own (a subscribed connection takes no
 * other command) that waits through outages, watched by `health`; `publisher` is the process's shared
 * connection. While the subscription is down, or its connection has not answered for a few seconds (a Redis
 * that hangs), the proofs trust nothing they remember (every request asks Postgres), and when it is back they
 * forget everything, since what was published meanwhile is lost.
 */
export function watchSessionRevocations(deps: {
  subscriber: RedisClient;
  health: RedisHealth;
  publisher: RedisClient;
  prefix: string;
  logger: Logger;
}): SessionRevocations {
  const channel = channelOf(deps.prefix);
  const listeners: ((ids: readonly string[] | null) => void)[] = [];
  const tell = (ids: readonly string[] | null) => {
    for (const listener of listeners) listener(ids);
  };
  let subscribed = false;
  let closed = false;
  let markLive: () => void = () => {};
  const firstLive = new Promise<void>((resolve) => {
    markLive = resolve;
  });

  const down = () => {
    subscribed = false;
  };
  const subscribe = () => {
    if (closed) return;
    deps.subscriber.subscribe(channel).then(
      () => {
        // Anything published while the subscription was down is lost: forget all, then trust again.
        tell(null);
        subscribed = true;
        markLive();
      },
      (err: Error) => deps.logger.warn({ err: err.message }, 'session revocations: subscribing failed; proofs ask Postgres until it works'),
    );
  };
  deps.subscriber.on('close', down);
  deps.subscriber.on('end', down);
  deps.subscriber.on('reconnecting', down);
  deps.subscriber.on('ready', subscribe);
  deps.subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    tell(message.split(',').filter(Boolean));
  });
  if ((deps.subscriber as { status?: string }).status === 'ready') subscribe();
  // Answering again after a hang: the connection never closed, but whatever was published meanwhile is lost.
  deps.health.onBack(() => {
    if (subscribed) tell(null);
  });

  return {
    get live() {
      // A Redis that hangs keeps the connection open and delivers nothing: once a health check has waited past its
      // timeout, a proof remembered here is checked in Postgres again, so a session ended elsewhere meanwhile stops
      // working within seconds.
      return subscribed && deps.health.answeringNow;
    },
    whenLive: () => firstLive,
    onRevoked(listener) {
      listeners.push(listener);
    },
    async revoke(tokenHashes) {
      if (tokenHashes.length === 0) return;
      tell(tokenHashes.map(proofSessionId));
      await announceRevocation(deps.publisher, deps.prefix, tokenHashes).catch((err: Error) =>
        deps.logger.warn({ err: err.message }, 'session revocation not published; other processes refuse the proof when it expires'),
      );
    },
    async close() {
      closed = true;
      subscribed = false;
      deps.health.stop();
      deps.subscriber.disconnect();
    },
  };
}
