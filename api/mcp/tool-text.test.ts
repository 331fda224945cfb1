import { describe, expect, it } from 'vitest';
import type { SearchReply, TimerRunReply } from '../../core/contract/event-replies';
import { searchText, timerRunsText } from './tool-text';

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
  events_left_out: 0,
  events_cursor: null,
  events_has_more: false,
  search_suggestions_url: null,
};

describe("find_events' and get_search's words", () => {
  it('say each date of the answer its checked events correct, after the events', () => {
    expect(searchText(reply)).toBe(
      '0 events found.\nThe answer\'s "2026-12-16, 21:00" is Tue 15 Dec 2026, 19:00 (checked on the event\'s page).',
    );
    expect(searchText({ ...reply, answer_corrections: [] })).toBe('0 events found.');
  });

  it('say that more events follow a page, and how many a search found beyond those it keeps', () => {
    const paged = { ...reply, answer_corrections: [], events_cursor: '199', events_has_more: true, events_left_out: 212 };
    expect(searchText(paged)).toBe(
      '0 events found.\nMore events follow: call get_search again with events_after 199.\n212 more events were found but not kept: a search keeps 500.',
    );
  });
});

const run: TimerRunReply = {
  id: 7,
  scheduled_for: '2026-12-07T05:00:00.000Z',
  started_at: '2026-12-07T05:00:02.000Z',
  finished_at: '2026-12-07T05:00:09.000Z',
  status: 'succeeded',
  answer: reply.answer,
  answer_corrections: reply.answer_corrections,
  marked_answer: reply.marked_answer,
  error: null,
  events: [],
  hidden_events: [],
  new_count: 0,
  changed_count: 0,
  changed_keys: [],
  search_suggestions_url: null,
};

describe("list_timer_runs' words", () => {
  it('say each run, newest first, when it started and how it went, then each date of its answer the check corrected', () => {
    const failed: TimerRunReply = {
      ...run,
      id: 6,
      started_at: '2026-12-06T05:00:01.000Z',
      status: 'failed',
      answer: null,
      answer_corrections: [],
      marked_answer: null,
      error: 'The website could not be read.',
    };
    expect(timerRunsText([{ ...run, new_count: 0, changed_count: 1 }, failed])).toBe(
      [
        'Run 7, Mon 7 Dec 2026, 05:00 (UTC): succeeded: 0 events, 0 new, 1 changed.',
        'The answer\'s "2026-12-16, 21:00" is Tue 15 Dec 2026, 19:00 (checked on the event\'s page).',
        'Run 6, Sun 6 Dec 2026, 05:00 (UTC): failed: The website could not be read.',
      ].join('\n'),
    );
    expect(timerRunsText([])).toBe('No runs yet.');
  });
});
