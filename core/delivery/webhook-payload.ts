import type { Event } from '../contract/event';
import type { WebhookDelivery, WebhookKind } from '../contract/webhook-delivery';
import { oneCardPerSeries } from '../events/series-card';
import { safeLink } from '../events/strict-values';
import { digestCounts, eventBadge, eventCheck, eventWhen } from './event-text';
import { shortQuestion } from './links';
import { AUTO_PAUSE_AFTER_FAILURES } from '../timers/auto-pause';

const LISTED = 5;

export interface WebhookMessage {
  kind: WebhookKind;
  timer: { id: number; question: string; website: string; timezone: string };
  run: { id: number; scheduledFor: Date; status: string; error: string | null };
  events: Event[];
  runsUrl: string;
}

/** The short summary chat services show as is (Slack, Mattermost and ntfy read `text`, Discord `content`). */
export function webhookText(m: WebhookMessage): string {
  const q = shortQuestion(m.timer.question);
  if (m.kind === 'paused') {
    return `Event Finder: your timer "${q}" failed ${AUTO_PAUSE_AFTER_FAILURES} runs in a row and paused itself.${m.run.error ? ` Last error: ${m.run.error}` : ''} Resume it in Manage Timers: ${m.runsUrl}`;
  }
  if (m.kind === 'out-of-searches') {
    return `Event Finder: no searches left this period, so your timer "${q}" skipped its run (nothing charged). ${m.runsUrl}`;
  }
  // A series its source gives as one rule is one line (core/events/series-card.ts); `events` keeps each occurrence.
  const events = oneCardPerSeries(m.events, new Date());
  const n = events.length;
  const lines = [`Event Finder: ${digestCounts(events)} for "${q}"`];
  for (const e of events.slice(0, LISTED)) {
    const url = safeLink(e.url);
    const checked = eventCheck(e, m.timer.timezone);
    lines.push(
      `• [${eventBadge(e)}] ${e.title} — ${eventWhen(e, m.timer.timezone)}${e.rrule && e.repeats ? `, repeats ${e.repeats}` : ''}${checked ? ` (${checked})` : ''}${url ? ` — ${url}` : ''}`,
    );
  }
  if (n > LISTED) lines.push(`…and ${n - LISTED} more`);
  lines.push(`All runs: ${m.runsUrl}`);
  return lines.join('\n');
}

/**
 * Slack reads `<…>` in `text` as its markup (`<!channel>` pings everyone, `<https://phish|Official tickets>` is a
 * link with words of the sender's choosing) and asks senders to escape exactly these three characters. Event
 * titles come from websites, so the whole text is escaped; Slack shows the characters themselves.
 */
export function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The JSON body of a webhook POST: `{text, timer, run, events}` (docs/contract.md) plus `content` for Discord.
 * `text` is escaped for Slack's markup; Discord pings nobody (`allowed_mentions`), whatever `@everyone` or
 * `<@&role>` a website's title holds. `events` and `timer` stay verbatim for receivers that read the data.
 */
export function webhookPayload(m: WebhookMessage): WebhookDelivery {
  const text = webhookText(m);
  return {
    text: slackEscape(text),
    content: text.slice(0, 2000),
    allowed_mentions: { parse: [] },
    kind: m.kind,
    timer: { id: m.timer.id, question: m.timer.question, website: m.timer.website, timezone: m.timer.timezone, url: m.runsUrl },
    run: {
      id: m.run.id,
      scheduled_for: m.run.scheduledFor.toISOString(),
      status: m.run.status,
      error: m.run.error,
      new_count: m.events.filter((e) => e.new).length,
    },
    events: m.events,
  };
}
