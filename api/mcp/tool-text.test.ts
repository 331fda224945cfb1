import { describe, expect, it } from 'vitest';
import type { SearchReply } from '../../core/contract/event-replies';
import { searchText } from './tool-text';

describe("find_events' and get_search's words", () => {
  it('say each date of the answer its checked events correct, after the events', () => {
    const reply: SearchReply = {
      id: 1,
      question: 'AI meetups in Berlin',
      website: '',
      status: 'answered',
      error: null,
      answer: 'Berlin ML Meetup\nDate: 2026-12-16, 21:00 to 23:00',
      answer_corrections: [
        {
          start: 23,
          end: 40,
          said: '2026-12-16, 21:00',
          checked: 'Tue 15 Dec 2026, 19:00',
          starts_at: '2026-12-15T19:00:00+01:00',
          event_key: 'k',
        },
      ],
      marked_answer: 'Berlin ML Meetup\nDate: 2026-12-16, 21:00 [corrected: Tue 15 Dec 2026, 19:00] to 23:00',
      events: [],
      hidden_events: [],
      events_status: 'done',
      search_suggestions_url: null,
    };
    expect(searchText(reply)).toBe(
      '0 events found.\nThe answer\'s "2026-12-16, 21:00" is Tue 15 Dec 2026, 19:00 (checked on the event\'s page).',
    );
    expect(searchText({ ...reply, answer_corrections: [] })).toBe('0 events found.');
  });
});
