import { Fragment } from 'react';
import { DATE_RANGE } from '../../core/time/date-words';

/**
 * A date as the one style writes it (core/time/event-date-format.ts). A range breaks only at its dash, never
 * inside either end ('Thu 18 Jun 2026, 09:00 – Fri' over '19 Jun 2026, 18:00' on a phone); a zone named after
 * it may break as words do. The text read out is the same as written.
 */
export function DateText({ text }: { text: string }) {
  const zoneAt = text.indexOf(' (');
  const dates = zoneAt < 0 ? text : text.slice(0, zoneAt);
  const ends = dates.split(DATE_RANGE);
  if (ends.length < 2) return <>{text}</>;
  return (
    <>
      {ends.map((end, i) => (
        <Fragment key={end}>
          {i > 0 ? DATE_RANGE : null}
          <span className="date-end">{end}</span>
        </Fragment>
      ))}
      {zoneAt < 0 ? null : text.slice(zoneAt)}
    </>
  );
}
