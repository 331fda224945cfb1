/**
 * A calendar of `count` events (at most 200), one a day from a week after the day of the read, so each stays
 * upcoming: a run that finds more than any chat service shows in one message, to see each message cut to its
 * service's limits with "and N more". Titles, places and links are long enough that the limits are reached.
 */
const DAY = 86_400_000;

export function manyEventsIcs(count: number, now = Date.now()): string {
  const n = Math.max(1, Math.min(200, Math.floor(count)));
  const first = Math.floor(now / DAY) * DAY + 7 * DAY;
  const stamp = (ms: number) =>
    new Date(ms)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
  const events = Array.from({ length: n }, (_, i) => {
    const start = first + i * DAY + 17 * 3600_000;
    return [
      'BEGIN:VEVENT',
      `UID:many-${i + 1}@many-events.example`,
      `DTSTAMP:${stamp(now)}`,
      `DTSTART:${stamp(start)}`,
      `DTEND:${stamp(start + 2 * 3600_000)}`,
      `SUMMARY:Applied AI Evening no. ${i + 1}: retrieval\\, agents and evaluation in practice`,
      `LOCATION:Community Hall ${i + 1}\\, Alexanderplatz 1\\, Berlin`,
      `URL:https://many-events.example/events/${i + 1}/applied-ai-evening`,
      'END:VEVENT',
    ].join('\r\n');
  });
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Event Finder stand-ins//Many events//EN', ...events, 'END:VCALENDAR', ''].join(
    '\r\n',
  );
}
