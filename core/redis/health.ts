import type { Logger } from '../logger';
import { noteRedisHealth } from '../metrics';
import type { RedisClient } from './client';

/** How often a connection is asked whether it answers (a PING). */
const PING_EVERY_MS = 1_000;
/** A PING not answered in this long means the connection is down or its Redis hangs. */
const PING_TIMEOUT_MS = 2_000;

export interface RedisHealth {
  /** Epoch ms of the last PING this connection answered (0: none yet). */
  readonly answeredAt: number;
  /** Whether its last PING was answered in time. */
  readonly answering: boolean;
  /**
   * Whether the connection may be taken as answering now: its last PING was answered in time and none has waited
   * past the timeout since. A PING that was never sent (an event loop busy elsewhere) does not count against it.
   */
  readonly answeringNow: boolean;
  /** Calls `listener` each time the connection answers again after it stopped. */
  onBack: (listener: () => void) => void;
  stop: () => void;
}

/**
 * Watches one Redis connection with a PING each second: a closed or refused connection shows by itself, but a
 * Redis that hangs (stopped, swapping, a partition that drops packets) keeps its connection open and simply
 * never replies, which only a reply that does not come can show. When it stops answering, that is logged once
 * and counted (`redis_outages_total{connection}`, `redis_up`); when it answers again, that is logged too. One
 * PING is in flight at a time, so a hang does not pile them up on the connection. A subscribed connection may
 * be watched too (Redis answers PING in subscriber mode).
 */
export function watchRedisHealth(client: RedisClient, connection: string, logger: Logger): RedisHealth {
  let answeredAt = 0;
  let answering = true;
  let inFlight = false;
  let sentAt = 0;
  let stopped = false;
  const listeners: (() => void)[] = [];
  noteRedisHealth(connection, true);

  const mark = (ok: boolean, why?: string) => {
    if (ok) answeredAt = Date.now();
    if (ok === answering) return;
    answering = ok;
    noteRedisHealth(connection, ok);
    if (ok) {
      logger.info({ connection }, 'redis answers again');
      for (const listener of listeners) listener();
    } else {
      logger.warn({ connection, err: why }, 'redis is not answering: what needs this connection fails or waits until it does');
    }
  };

  const ping = () => {
    if (inFlight || stopped) return;
    inFlight = true;
    sentAt = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no reply to PING in ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
    });
    const sent = client.ping();
    Promise.race([sent, late]).then(
      () => mark(true),
      (err: Error) => mark(false, err.message),
    );
    // The next PING only once this one is settled, even when it was given up on: a hung connection holds it.
    sent
      .catch(() => {})
      .finally(() => {
        clearTimeout(timer);
        inFlight = false;
      });
    late.catch(() => {});
  };
  // The first a second after start, once the connection had its chance to open.
  const every = setInterval(ping, PING_EVERY_MS);
  every.unref();

  return {
    get answeredAt() {
      return answeredAt;
    },
    get answering() {
      return answering;
    },
    get answeringNow() {
      return answering && !(inFlight && Date.now() - sentAt > PING_TIMEOUT_MS);
    },
    onBack(listener) {
      listeners.push(listener);
    },
    stop() {
      stopped = true;
      clearInterval(every);
    },
  };
}
