import type { Event } from '../../contract/event';
import { safeLink } from '../../events/strict-values';
import { zoneLabel } from '../../time/event-date-format';
import { addToCalendarUrl } from '../calendar';
import { eventPlace } from '../../events/event-place';
import { digestCounts, eventBadge, eventCheck, eventWhen, messageZone } from '../event-text';
import { shortQuestion } from '../links';
import { buttonLink, EmailLayout, link, muted, renderEmailHtml } from './layout';

export interface DigestInput {
  question: string;
  timezone: string;
  events: Event[];
  runsUrl: string;
  unsubscribeUrl: string;
  /** A sentence about the timer itself to put first, e.g. that its webhook answered 410 Gone and was removed. */
  notice?: string | null;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/**
 * `3 new events: AI meetups in Berlin`, `2 changed events: …` or `1 new and 2 changed events: …`: what the run
 * found, said as it is (a run of moved and cancelled events only is not "new").
 */
export function digestSubject(question: string, events: Event[]): string {
  return `${digestCounts(events)}: ${shortQuestion(question)}`;
}

// The badge's colours, as the page's: new green, changed amber, cancelled red.
const BADGE: Record<string, { color: string; background: string; border: string }> = {
  New: { color: '#0f7b4d', background: '#f3fbf7', border: '#b7e4cb' },
  Cancelled: { color: '#b42318', background: '#fef3f2', border: '#f1c4c0' },
  changed: { color: '#7a4a00', background: '#fff4e0', border: '#f3d19c' },
};

function EventItem({ event, timezone }: { event: Event; timezone: string }) {
  const place = eventPlace(event);
  const calendar = addToCalendarUrl(event);
  const cancelled = event.status === 'cancelled';
  const url = safeLink(event.url);
  const badge = eventBadge(event);
  const tone = BADGE[badge] ?? BADGE.changed!;
  const checked = eventCheck(event, timezone);
  return (
    <li style={{ margin: '0 0 12px', padding: '10px 12px', listStyle: 'none', border: '1px solid #dde1ec', borderRadius: '10px' }}>
      <span
        style={{
          display: 'inline-block',
          fontSize: '12px',
          fontWeight: 700,
          padding: '1px 8px',
          borderRadius: '999px',
          color: tone.color,
          background: tone.background,
          border: `1px solid ${tone.border}`,
        }}
      >
        {badge}
      </span>
      <div style={{ fontSize: '17px', fontWeight: 600, margin: '4px 0 2px', textDecoration: cancelled ? 'line-through' : undefined }}>
        {url ? (
          <a href={url} style={link}>
            {event.title}
          </a>
        ) : (
          event.title
        )}
      </div>
      <div style={{ fontSize: '15px' }}>{eventWhen(event, timezone, { zone: false })}</div>
      {event.rrule && event.repeats ? <div style={muted}>Repeats {event.repeats}</div> : null}
      {place ? <div style={muted}>{place}</div> : null}
      {checked ? <div style={muted}>{checked}</div> : null}
      {calendar ? (
        <div style={{ marginTop: '6px', fontSize: '14px' }}>
          <a href={calendar} style={link}>
            Add to calendar
          </a>
        </div>
      ) : null}
    </li>
  );
}

// The zone named once above the events, as everywhere a zone is named: 'America/New York'.
const datesAreIn = (zone: string) => `Dates are in ${zoneLabel(zone)}, the time zone of your timer.`;

function DigestEmail(props: DigestInput) {
  const zone = messageZone(props.timezone);
  return (
    <EmailLayout
      title={digestSubject(props.question, props.events)}
      footer={
        <>
          You get this because your Event Finder timer asks “{shortQuestion(props.question)}” and found new or changed events.{' '}
          <a href={props.unsubscribeUrl} style={link}>
            Unsubscribe from this timer’s emails
          </a>
          .
        </>
      }
    >
      <h1 style={{ fontSize: '20px', lineHeight: 1.3, margin: '0 0 4px' }}>{digestSubject(props.question, props.events)}</h1>
      {props.notice ? <p style={{ margin: '0 0 12px', fontWeight: 600 }}>{props.notice}</p> : null}
      <p style={{ ...muted, margin: '0 0 16px' }}>{datesAreIn(zone)}</p>
      <ul style={{ padding: 0, margin: 0 }}>
        {props.events.map((e) => (
          <EventItem key={e.key} event={e} timezone={zone} />
        ))}
      </ul>
      <p style={{ margin: '16px 0 0' }}>
        <a href={props.runsUrl} style={buttonLink}>
          Read this run’s answer and all runs of this timer
        </a>
      </p>
    </EmailLayout>
  );
}

function digestText(props: DigestInput): string {
  const zone = messageZone(props.timezone);
  const lines = [digestSubject(props.question, props.events), ...(props.notice ? ['', props.notice, ''] : []), datesAreIn(zone), ''];
  for (const e of props.events) {
    lines.push(`[${eventBadge(e)}] ${e.title}`, `  ${eventWhen(e, zone, { zone: false })}`);
    if (e.rrule && e.repeats) lines.push(`  Repeats ${e.repeats}`);
    const place = eventPlace(e);
    if (place) lines.push(`  ${place}`);
    const checked = eventCheck(e, zone);
    if (checked) lines.push(`  ${checked}`);
    const url = safeLink(e.url);
    if (url) lines.push(`  ${url}`);
    const calendar = addToCalendarUrl(e);
    if (calendar) lines.push(`  Add to calendar: ${calendar}`);
    lines.push('');
  }
  lines.push(
    `This run's answer and all runs of this timer: ${props.runsUrl}`,
    '',
    `Unsubscribe from this timer's emails: ${props.unsubscribeUrl}`,
  );
  return lines.join('\n');
}

/** The digest of one run: subject, HTML (rendered with React on the server) and the plain-text part. */
export function renderDigest(input: DigestInput): RenderedEmail {
  return {
    subject: digestSubject(input.question, input.events),
    html: renderEmailHtml(<DigestEmail {...input} />),
    text: digestText(input),
  };
}
