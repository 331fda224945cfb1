import type { Event } from '../../contract/event';
import { safeLink } from '../../events/strict-values';
import { addToCalendarUrl } from '../calendar';
import { eventBadge, eventPlace, eventWhen } from '../event-text';
import { shortQuestion } from '../links';
import { EmailLayout, link, muted, renderEmailHtml } from './layout';

export interface DigestInput {
  question: string;
  timezone: string;
  events: Event[];
  runsUrl: string;
  unsubscribeUrl: string;
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

/** "3 new events", "1 changed event", "1 new and 2 changed events". */
export function digestCounts(events: Event[]): string {
  const fresh = events.filter((e) => e.new).length;
  const changed = events.length - fresh;
  const noun = (n: number) => `event${n === 1 ? '' : 's'}`;
  if (changed === 0) return `${fresh} new ${noun(fresh)}`;
  if (fresh === 0) return `${changed} changed ${noun(changed)}`;
  return `${fresh} new and ${changed} changed ${noun(changed)}`;
}

function EventItem({ event, timezone }: { event: Event; timezone: string }) {
  const place = eventPlace(event);
  const calendar = addToCalendarUrl(event);
  const cancelled = event.status === 'cancelled';
  const url = safeLink(event.url);
  return (
    <li style={{ margin: '0 0 18px', listStyle: 'none' }}>
      <div style={{ fontSize: '12px', fontWeight: 700, color: cancelled ? '#b42318' : '#4a3aff', textTransform: 'uppercase' }}>
        {eventBadge(event)}
      </div>
      <div style={{ fontSize: '17px', fontWeight: 600, textDecoration: cancelled ? 'line-through' : undefined }}>
        {url ? (
          <a href={url} style={link}>
            {event.title}
          </a>
        ) : (
          event.title
        )}
      </div>
      <div>{eventWhen(event, timezone)}</div>
      {place ? <div style={muted}>{place}</div> : null}
      {calendar ? (
        <div style={{ marginTop: '4px' }}>
          <a href={calendar} style={link}>
            Add to calendar
          </a>
        </div>
      ) : null}
    </li>
  );
}

function DigestEmail(props: DigestInput) {
  return (
    <EmailLayout
      title={digestSubject(props.question, props.events)}
      footer={
        <>
          You get this because your Event Finder timer asks “{shortQuestion(props.question)}” and found something new.{' '}
          <a href={props.unsubscribeUrl} style={link}>
            Unsubscribe from this timer’s emails
          </a>
          .
        </>
      }
    >
      <h1 style={{ fontSize: '20px', margin: '0 0 4px' }}>{digestSubject(props.question, props.events)}</h1>
      <p style={{ ...muted, margin: '0 0 20px' }}>Dates are in {props.timezone}, the time zone of your timer.</p>
      <ul style={{ padding: 0, margin: 0 }}>
        {props.events.map((e) => (
          <EventItem key={e.key} event={e} timezone={props.timezone} />
        ))}
      </ul>
      <p>
        <a href={props.runsUrl} style={link}>
          See all runs of this timer
        </a>
      </p>
    </EmailLayout>
  );
}

function digestText(props: DigestInput): string {
  const lines = [digestSubject(props.question, props.events), `Dates are in ${props.timezone}.`, ''];
  for (const e of props.events) {
    lines.push(`[${eventBadge(e)}] ${e.title}`, `  ${eventWhen(e, props.timezone)}`);
    const place = eventPlace(e);
    if (place) lines.push(`  ${place}`);
    const url = safeLink(e.url);
    if (url) lines.push(`  ${url}`);
    const calendar = addToCalendarUrl(e);
    if (calendar) lines.push(`  Add to calendar: ${calendar}`);
    lines.push('');
  }
  lines.push(`All runs of this timer: ${props.runsUrl}`, '', `Unsubscribe from this timer's emails: ${props.unsubscribeUrl}`);
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
