import type { Event } from '../../core/contract/event';
import { googleCalendarLink } from '../../core/events/calendar-link';
import { eventPlace } from '../../core/events/event-place';
import { icsFileName, singleEventIcs } from '../../core/events/ics';
import { safeLink } from '../../core/events/strict-values';
import { verificationText } from '../../core/events/verification-text';
import { MOVED_TO } from '../../core/time/event-date-format';
import { DateText } from './date-text';
import { friendlyDate, isPast, shortDate } from './event-date';

export interface EventCardProps {
  event: Event;
  /** The user's IANA time zone: times are shown in it. */
  timeZone: string;
  /** Domain part of the .ics UID (the page's host). */
  uidDomain?: string;
  /** The page's clock (ms): an event over before it is shown as past, never as New. */
  now?: number;
  /** Changed since the timer last saw it (its run says so), though its status alone may not show it. */
  changed?: boolean;
  /** A line in a timer's run: without Add to calendar (the timer's calendar feed is beside it). */
  compact?: boolean;
}

/** What the badge says: over already, new to the user or the timer, or changed since it was last seen. */
function badgeOf(e: Event, past: boolean, changed: boolean): { text: string; tone: 'new' | 'changed' | 'past' } | null {
  if (past) return { text: 'Past', tone: 'past' };
  if (e.new) return { text: 'New', tone: 'new' };
  if (e.status === 'cancelled') return { text: 'Changed: cancelled', tone: 'changed' };
  if (e.status === 'moved') return { text: 'Changed: new date', tone: 'changed' };
  return changed ? { text: 'Changed', tone: 'changed' } : null;
}

/** One event: title, date in the user's zone, its place (core/events/event-place.ts), its link, and Add to calendar. */
export function EventCard({
  event,
  timeZone,
  uidDomain = 'event-finder',
  now = Date.now(),
  changed = false,
  compact = false,
}: EventCardProps) {
  const past = isPast(event, now);
  const badge = badgeOf(event, past, changed);
  const google = googleCalendarLink(event);
  const ics = singleEventIcs(event, uidDomain);
  const place = eventPlace(event);
  const cancelled = event.status === 'cancelled';
  // Events stored before links were checked may hold any scheme: only http(s) becomes a link.
  const link = safeLink(event.url);
  // The model's start as the card would show it, in the user's zone.
  const checked = verificationText(event, (iso) => friendlyDate({ ...event, starts_at: iso, ends_at: null }, timeZone));
  const checkStatus = event.verification?.status;
  return (
    <article className="event-card" data-status={event.status} data-past={past || undefined}>
      <header className="event-card__head">
        <h4 className="event-card__title">
          {link ? (
            <a href={link} target="_blank" rel="noopener noreferrer">
              {event.title}
            </a>
          ) : (
            event.title
          )}
        </h4>
        {badge && <span className={`event-card__badge event-card__badge--${badge.tone}`}>{badge.text}</span>}
      </header>
      <p className="event-card__when">
        {cancelled ? (
          <s>
            <DateText text={friendlyDate(event, timeZone)} />
          </s>
        ) : (
          <>
            {event.status === 'moved' && event.moved_from ? (
              // Moved: the old date struck through before the new one (old → new), named for screen readers.
              <span className="event-card__moved-from">
                <span className="visually-hidden">Moved from </span>
                <s>
                  <DateText
                    text={friendlyDate(
                      { ...event, starts_at: event.moved_from, ends_at: null, all_day: event.moved_from.length === 10 },
                      timeZone,
                    )}
                  />
                </s>
                <span aria-hidden="true">{MOVED_TO}</span>
                <span className="visually-hidden"> to </span>
              </span>
            ) : null}
            <time dateTime={event.starts_at ?? undefined}>
              {compact ? (
                // A run's line on a phone: the date short, so the place beside it keeps its room.
                <>
                  <span className="event-card__date-long">
                    <DateText text={friendlyDate(event, timeZone)} />
                  </span>
                  <span className="event-card__date-short" aria-hidden="true">
                    <DateText text={shortDate(event, timeZone)} />
                  </span>
                </>
              ) : (
                <DateText text={friendlyDate(event, timeZone)} />
              )}
            </time>
          </>
        )}
        {event.status === 'tentative' && <span className="event-card__tentative"> · not yet confirmed</span>}
        {/* Compact: the place on the date's line. */}
        {compact && place ? <span className="event-card__where"> · {place}</span> : null}
      </p>
      {place && !compact ? <p className="event-card__where">{place}</p> : null}
      {/* A hidden event says which filter left it out. */}
      {event.hidden_by ? <p className="event-card__hidden">Hidden: {event.hidden_by}</p> : null}
      {event.repeats ? <p className="event-card__repeats">Repeats {event.repeats}</p> : null}
      {checked && checkStatus !== 'source' ? (
        <p className={`event-card__check event-card__check--${checkStatus}`}>
          {checkStatus === 'unconfirmed' ? checked : <CheckedLink text={checked} url={event.verification?.source_url ?? null} />}
        </p>
      ) : null}
      {!cancelled && !compact && (google || ics) && (
        <p className="event-card__actions">
          <span className="event-card__add">Add to calendar:</span>
          {google && (
            <a className="button button--secondary button--small" href={google} target="_blank" rel="noopener noreferrer">
              Google Calendar<span className="visually-hidden"> for {event.title}</span>
            </a>
          )}
          {ics && (
            <a
              className="button button--secondary button--small"
              href={`data:text/calendar;charset=utf-8,${encodeURIComponent(ics)}`}
              download={icsFileName(event)}
            >
              .ics file<span className="visually-hidden"> for {event.title}</span>
            </a>
          )}
        </p>
      )}
    </article>
  );
}

/** "Checked on example.org" with the site's name as the link to the page that said so. */
function CheckedLink({ text, url }: { text: string; url: string | null }) {
  const link = safeLink(url);
  const site = /on (\S+)|from (\S+)/.exec(text);
  const name = site?.[1] ?? site?.[2];
  if (!link || !name) return <>{text}</>;
  const at = text.indexOf(name);
  return (
    <>
      {text.slice(0, at)}
      <a href={link} target="_blank" rel="noopener noreferrer">
        {name}
      </a>
      {text.slice(at + name.length)}
    </>
  );
}
