import type { Queue } from 'bullmq';
import type Stripe from 'stripe';
import type { Sql } from '../../db/client';
import { deleteUserRows, liveTimerIds } from '../../db/account-data';
import type { SessionUser } from '../../db/sessions';
import { cancelSubscription } from '../billing/cancel';
import type { Config } from '../config';
import type { Mailer } from '../delivery/mailer';
import type { RunTimerJob } from '../jobs';
import type { Logger } from '../logger';
import { removeTimerScheduler, withRedisDeadline } from '../timers/scheduler';

export interface DeleteAccountDeps {
  sql: Sql;
  stripe: Stripe;
  config: Config;
  timersQueue: Queue<RunTimerJob>;
  logger: Logger;
  /** null when email is off: then no confirmation is sent. */
  mailer: Mailer | null;
}

/**
 * Deletes a user's account (docs/decisions/data-lifecycle.md): the paid subscription is cancelled at Stripe first (a failure there
 * stops everything, so nobody is billed for an account that is gone), the timers' schedulers are removed from
 * Redis (one that cannot be is removed by the next reconcile pass, which drops schedulers of timers that no
 * longer exist), every row of theirs is deleted through the foreign keys, and a confirmation email goes out.
 */
export async function deleteAccount(deps: DeleteAccountDeps, user: SessionUser): Promise<void> {
  await cancelSubscription(deps, user.id);
  for (const timerId of await liveTimerIds(deps.sql, user.id)) {
    await withRedisDeadline(() => removeTimerScheduler(deps.timersQueue, timerId)).catch((err: Error) =>
      deps.logger.warn({ err: err.message, timerId }, 'scheduler of a deleted account left for reconcile to remove'),
    );
  }
  await deleteUserRows(deps.sql, user.id);
  if (!deps.mailer) return;
  await deps.mailer
    .send({
      to: user.email,
      subject: 'Your Event Finder account is deleted',
      text: `Hello ${user.name},\n\nYour Event Finder account and everything it held (timers, searches, runs, feeds) are deleted, and any paid plan is cancelled. Nothing more will be sent to this address.\n\nIf you did not ask for this, write to ${deps.config.supportEmail}.\n`,
      html: `<p>Hello ${escapeHtml(user.name)},</p><p>Your Event Finder account and everything it held (timers, searches, runs, feeds) are deleted, and any paid plan is cancelled. Nothing more will be sent to this address.</p><p>If you did not ask for this, write to ${escapeHtml(deps.config.supportEmail)}.</p>`,
    })
    .catch((err: Error) => deps.logger.warn({ err: err.message }, 'account deleted; its confirmation email was not sent'));
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
