import { usageEpochOf } from '../../db/accounts';
import type { Sql } from '../../db/client';
import { recordDelivery, type DeliveryChannel, type DeliveryKind } from '../../db/deliveries';
import type { RunEvent } from '../../db/events';
import type { Timer } from '../../db/timers';
import type { Config } from '../config';
import type { Event } from '../contract/event';
import type { Logger } from '../logger';
import { digestWindow } from './digest-window';

export interface RunDeliveriesDeps {
  sql: Sql;
  config: Config;
  logger: Logger;
}

/** The message a run's end is worth: its news, the alert of a pause, or the notice that searches ran out. */
export type RunMessage = { kind: 'digest'; events: Event[]; now: Date } | { kind: 'paused' } | { kind: 'out-of-searches' };

/** What a run found that is worth a message: events the timer never saw, and ones that moved or were cancelled. */
export function newOrChanged(runEvents: RunEvent[]): Event[] {
  return runEvents.filter((r) => r.event.new || r.changed).map((r) => r.event);
}

type Planned = { channel: DeliveryChannel; kind: DeliveryKind; events?: Event[] };

/**
 * Records a run's message on the timer's channels (email when on, webhook when set) and returns the deliveries
 * to enqueue (core/delivery/queue.ts); null records nothing. A digest leaves out events that ended more than 30
 * days before and new ones already over (counted and logged), and goes nowhere when nothing is left; the
 * out-of-searches notice is email only, once per user and allowance period (a unique index), whichever timer
 * hits it first. Safe to call again for the same run: every message is recorded under a unique key.
 */
export async function recordRunMessages(
  deps: RunDeliveriesDeps,
  timer: Timer,
  runId: number,
  message: RunMessage | null,
): Promise<number[]> {
  const planned = message ? plan(deps, timer, runId, message) : [];
  const usageEpoch = planned.some((p) => p.kind === 'out-of-searches') ? await usageEpochOf(deps.sql, timer.userId) : undefined;
  const deliveries: number[] = [];
  for (const p of planned) {
    const id = await recordDelivery(deps.sql, { timerId: timer.id, runId, userId: timer.userId, ...p, usageEpoch });
    if (id !== null) deliveries.push(id);
  }
  return deliveries;
}

/** The deliveries a message makes, one per channel it goes to. */
function plan(deps: RunDeliveriesDeps, timer: Timer, runId: number, message: RunMessage): Planned[] {
  const emailOn = deps.config.mail.url !== null && timer.email;
  const channels = (kind: DeliveryKind, events?: Event[]): Planned[] => [
    ...(emailOn ? [{ channel: 'email' as const, kind, events }] : []),
    ...(timer.webhookUrl ? [{ channel: 'webhook' as const, kind, events }] : []),
  ];
  switch (message.kind) {
    case 'digest': {
      const { kept, dropped, past } = digestWindow(message.events, message.now);
      if (dropped > 0 || past > 0) {
        deps.logger.info(
          { timerId: timer.id, runId, dropped, past, kept: kept.length },
          `left ${dropped} long-past and ${past} new but already over events out of the digest`,
        );
      }
      return kept.length === 0 ? [] : channels('digest', kept);
    }
    case 'paused':
      return channels('paused');
    case 'out-of-searches':
      return emailOn ? [{ channel: 'email', kind: 'out-of-searches' }] : [];
  }
}
