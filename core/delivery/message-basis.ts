import type { TimerForMessages, lastAnsweredRun } from '../../db/message-preview';
import type { Event } from '../contract/event';
import type { TimerPreviewReply } from '../contract/test-delivery';
import { formatEventMoment, withZone } from '../time/event-date-format';
import { knownTimeZone } from '../time/time-zone';
import type { MessageSource } from './build-message';
import { digestWindow } from './digest-window';
import { newOrChanged } from './run-deliveries';

type LastRun = Awaited<ReturnType<typeof lastAnsweredRun>>;

/** What a preview and a test send are built from: the next digest's stand-in, and in words what it holds. */
export interface MessageBasis {
  basis: TimerPreviewReply['basis'];
  note: string;
  run: { id: number; scheduledFor: Date } | null;
  source: MessageSource;
}

/**
 * The digest the timer's last answered run made (its new and changed events, as the run kept them and the digest
 * window leaves them at `now`): what the next digest will look like, laid out by the real message code. A run
 * that found only known events shows them as new, since a digest only ever holds news; a timer that has not run
 * (or found nothing) has an empty digest, which a test send still sends, to check the address.
 */
export function messageBasis(owner: TimerForMessages, last: LastRun, now: Date): MessageBasis {
  const zone = knownTimeZone(owner.timer.timezone);
  const when = last ? withZone(formatEventMoment(last.scheduledFor, zone), zone) : '';
  let basis: MessageBasis['basis'];
  let note: string;
  let events: Event[] = [];
  if (!last) {
    basis = 'no-run';
    note = 'No run yet: the preview appears after the first run.';
  } else {
    const news = digestWindow(newOrChanged(last.events), now).kept;
    const all = digestWindow(
      last.events.map((r) => ({ ...r.event, new: true })),
      now,
    ).kept;
    if (news.length > 0) {
      basis = 'news';
      events = news;
      note = `Built from the run of ${when}: its new and changed events, as its digest listed them.`;
    } else if (all.length > 0) {
      basis = 'known';
      events = all;
      note = `The run of ${when} found nothing new, so it sent no digest. Here its events show as new, as the next digest will show news.`;
    } else {
      basis = 'nothing';
      note = `The run of ${when} found no events to list, so there is nothing to preview yet. A test still shows where messages go.`;
    }
  }
  return {
    basis,
    note,
    run: last ? { id: last.id, scheduledFor: last.scheduledFor } : null,
    source: {
      kind: 'digest',
      events,
      target: null,
      timer: owner.timer,
      // Before the first run a test has no run to name: id 0, now.
      run: last
        ? { id: last.id, scheduledFor: last.scheduledFor, status: last.status, error: last.error }
        : { id: 0, scheduledFor: now, status: 'succeeded', error: null },
      user: owner.user,
    },
  };
}
