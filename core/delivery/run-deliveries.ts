import type { DeliveryKind, NewDelivery } from '../../db/deliveries';
import type { RunEvent } from '../../db/events';
import type { TimerChannel } from '../../db/timer-channels';
import type { Timer } from '../../db/timers';
import type { Config } from '../config';
import type { Event } from '../contract/event';
import type { Logger } from '../logger';
import { digestWindow } from './digest-window';

export interface RunDeliveriesDeps {
  config: Config;
  logger: Logger;
}

/** The message a run's end is worth: its news, the alert of a pause, or the notice that searches ran out. */
export type RunMessage = { kind: 'digest'; events: Event[]; now: Date } | { kind: 'paused' } | { kind: 'out-of-searches' };

/** What a run found that is worth a message: events the timer never saw, and ones that moved or were cancelled. */
export function newOrChanged(runEvents: RunEvent[]): Event[] {
  return runEvents.filter((r) => r.event.new || r.changed).map((r) => r.event);
}

/** One message on one channel, ready to be recorded (db/after-run.ts). */
export type PlannedDelivery = Omit<NewDelivery, 'usageEpoch'>;

/**
 * The deliveries a run's message makes, one per channel it goes to (email when on, webhook when set, each chat
 * or push channel not stopped), for the
 * caller to record. A digest leaves out events that ended more than 30 days before and new ones already over
 * (counted and logged), and goes nowhere when nothing is left; the out-of-searches notice is emailed once per
 * user and allowance period, whichever timer hits it first, and sent to each timer's webhook once per period
 * (unique indexes, migration 028). Every message is recorded
 * under a unique key, so recording the same run's again lands on the same rows.
 */
export function planRunMessages(
  deps: RunDeliveriesDeps,
  timer: Timer,
  runId: number,
  message: RunMessage,
  /** The timer's chat and push channels that are not stopped (db/timer-channels.ts): one message each. */
  channelsOn: Pick<TimerChannel, 'id' | 'kind'>[] = [],
): PlannedDelivery[] {
  const emailOn = deps.config.mail.url !== null && timer.email;
  const on = { timerId: timer.id, runId, userId: timer.userId };
  const channels = (kind: DeliveryKind, events?: Event[]): PlannedDelivery[] => [
    ...(emailOn ? [{ ...on, channel: 'email' as const, kind, events }] : []),
    ...(timer.webhookUrl ? [{ ...on, channel: 'webhook' as const, kind, events }] : []),
    ...channelsOn.map((c) => ({ ...on, channel: c.kind, channelId: c.id, kind, events })),
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
      return channels('out-of-searches');
  }
}
