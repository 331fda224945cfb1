import { lastAnsweredRun, timerForMessages } from '../../db/message-preview';
import { listTimerChannels } from '../../db/timer-channels';
import type { DestinationName, TestDeliveryReply, TimerPreviewReply } from '../contract/test-delivery';
import type { Logger } from '../logger';
import { type DestinationDeps, destinationsOf } from './destinations';
import { DeliveryError } from './errors';
import { messageBasis } from './message-basis';

/** The timer's destinations: email, the webhook and each of its channels. */
const timerDestinations = async (deps: Pick<DestinationDeps, 'sql'>, timerId: number) =>
  destinationsOf((await listTimerChannels(deps.sql, [timerId])).get(timerId) ?? []);

/**
 * The timer page's preview: the next digest on each destination, built from the last run's events by the code
 * that builds real messages. `secrets` false (a read-only token) leaves addresses out. Null when the timer is
 * not the user's.
 */
export async function previewTimerMessages(
  deps: Pick<DestinationDeps, 'sql' | 'appUrl' | 'mailer'>,
  userId: number,
  timerId: number,
  { secrets = true, now = new Date() }: { secrets?: boolean; now?: Date } = {},
): Promise<TimerPreviewReply | null> {
  const owner = await timerForMessages(deps.sql, userId, timerId);
  if (!owner) return null;
  const destinations = await timerDestinations(deps, timerId);
  const { basis, note, run, source } = messageBasis(owner, await lastAnsweredRun(deps.sql, timerId), now);
  const shown = basis === 'news' || basis === 'known';
  return {
    basis,
    note,
    run: run ? { id: run.id, scheduled_for: run.scheduledFor.toISOString() } : null,
    destinations: destinations.map((d) => ({
      destination: d.name,
      label: d.label(secrets),
      kind: d.kind,
      unavailable: d.unavailable(source, deps),
      preview: shown ? d.preview(source, deps.appUrl, secrets) : null,
    })),
  };
}

export type TestDeliveryOutcome =
  | { kind: 'not_found' }
  /** The timer has no such destination now (email off, no webhook, no such channel, a stopped one): a sentence saying what to do. */
  | { kind: 'unavailable'; message: string }
  | { kind: 'tried'; reply: TestDeliveryReply };

const NO_CHANNEL = 'This timer has no such channel. Reload Manage Timers to see its channels and their ids.';

/**
 * "Send a test": the preview's message, marked as a test, sent now to one destination and awaited, so the person
 * learns at once whether it arrived or what the receiver answered. It searches nothing and records nothing: no
 * run, no deliveries row, no event marked as seen; a failure is not retried, and a service saying the address
 * is gone stops nothing (docs/decisions/delivery.md).
 */
export async function sendTestDelivery(
  deps: DestinationDeps & { logger: Logger },
  userId: number,
  timerId: number,
  name: DestinationName,
  now = new Date(),
): Promise<TestDeliveryOutcome> {
  const owner = await timerForMessages(deps.sql, userId, timerId);
  if (!owner) return { kind: 'not_found' };
  const { source } = messageBasis(owner, await lastAnsweredRun(deps.sql, timerId), now);
  const destination = (await timerDestinations(deps, timerId)).find((d) => d.name === name);
  if (!destination) return { kind: 'unavailable', message: NO_CHANNEL };
  const unavailable = destination.unavailable(source, deps);
  if (unavailable) return { kind: 'unavailable', message: unavailable };
  try {
    const message = await destination.sendTest(source, deps);
    deps.logger.info({ timerId, destination: name }, 'test delivery sent');
    return { kind: 'tried', reply: { destination: name, delivered: true, message } };
  } catch (err) {
    if (!(err instanceof DeliveryError)) throw err;
    deps.logger.info({ timerId, destination: name, err: err.message }, 'test delivery refused');
    return { kind: 'tried', reply: { destination: name, delivered: false, message: err.message } };
  }
}
