import type { Queue } from 'bullmq';
import { usageEpochOf } from '../../db/accounts';
import type { Sql } from '../../db/client';
import { recordDelivery, type DeliveryChannel, type DeliveryKind } from '../../db/deliveries';
import type { RunEvent } from '../../db/events';
import type { Timer } from '../../db/timers';
import type { Config } from '../config';
import type { Event } from '../contract/event';
import type { DeliverJob } from '../jobs';
import type { Logger } from '../logger';
import { digestWindow } from './digest-window';
import { enqueueDelivery } from './queue';

export interface RunDeliveriesDeps {
  sql: Sql;
  config: Config;
  logger: Logger;
  deliveriesQueue: Queue<DeliverJob>;
  /** First retry delay of delivery jobs; the default (30 s) unless a test shortens it. */
  deliveryBackoffMs?: number;
}

/** The message a run's end is worth: its news, the alert of a pause, or the notice that searches ran out. */
export type RunMessage = { kind: 'digest'; events: Event[]; now: Date } | { kind: 'paused' } | { kind: 'out-of-searches' };

/** What a run found that is worth a message: events the timer never saw, and ones that moved or were cancelled. */
export function newOrChanged(runEvents: RunEvent[]): Event[] {
  return runEvents.filter((r) => r.event.new || r.changed).map((r) => r.event);
}

/**
 * Records and enqueues a run's message on the timer's channels (email when on, webhook when set) and returns
 * the deliveries this call added. A digest leaves out events that ended more than 30 days before and new ones
 * already over (counted and logged), and goes nowhere when nothing is left; the out-of-searches notice is email
 * only, once per user and allowance period (a unique index), whichever timer hits it first. Safe to call again
 * for the same run: every message is recorded under a unique key before it is sent.
 */
export async function recordRunMessages(deps: RunDeliveriesDeps, timer: Timer, runId: number, message: RunMessage): Promise<number[]> {
  const deliveries: number[] = [];
  const record = async (channel: DeliveryChannel, kind: DeliveryKind, extra: { events?: Event[]; usageEpoch?: number } = {}) => {
    const id = await recordDelivery(deps.sql, { timerId: timer.id, runId, userId: timer.userId, channel, kind, ...extra });
    if (id === null) return;
    await enqueueDelivery(deps.deliveriesQueue, id, deps.deliveryBackoffMs);
    deliveries.push(id);
  };
  const emailOn = deps.config.mail.url !== null && timer.email;

  switch (message.kind) {
    case 'digest': {
      const { kept, dropped, past } = digestWindow(message.events, message.now);
      if (dropped > 0 || past > 0) {
        deps.logger.info(
          { timerId: timer.id, runId, dropped, past, kept: kept.length },
          `left ${dropped} long-past and ${past} new but already over events out of the digest`,
        );
      }
      if (kept.length === 0) return deliveries;
      if (emailOn) await record('email', 'digest', { events: kept });
      if (timer.webhookUrl) await record('webhook', 'digest', { events: kept });
      return deliveries;
    }
    case 'paused':
      if (emailOn) await record('email', 'paused');
      if (timer.webhookUrl) await record('webhook', 'paused');
      return deliveries;
    case 'out-of-searches':
      if (emailOn) await record('email', 'out-of-searches', { usageEpoch: await usageEpochOf(deps.sql, timer.userId) });
      return deliveries;
  }
}
