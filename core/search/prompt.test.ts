import { describe, expect, it } from 'vitest';
import { SYSTEM_INSTRUCTION } from '../gemini/system-instruction';
import { buildPrompt, FEW_SEARCHES, PROMPT_EVENT_LIMIT, promptEvents, todayIn } from './prompt';

const now = new Date('2026-05-14T23:30:00Z');

describe('buildPrompt', () => {
  it("gives today's date in the user's time zone and the question", () => {
    expect(todayIn('Europe/Berlin', now)).toBe('Friday, 15 May 2026');
    expect(todayIn('America/New_York', now)).toBe('Thursday, 14 May 2026');
    const prompt = buildPrompt({ question: 'AI events in Berlin', timezone: 'Europe/Berlin', now, website: null });
    expect(prompt).toContain("Today is Friday, 15 May 2026. The user's time zone is Europe/Berlin");
    expect(prompt).toContain('QUESTION: AI events in Berlin');
    expect(prompt).toContain('Search the web');
    // Each search query is billed: the model is asked for one when it suffices (docs/decisions/gemini-and-cost.md).
    expect(prompt).toContain(FEW_SEARCHES);
    expect(prompt).not.toContain('WEBSITE');
  });

  it('carries the website facts with their source URL', () => {
    const prompt = buildPrompt({
      question: 'meetups',
      timezone: 'UTC',
      now,
      website: {
        url: 'https://m.example/cal',
        title: 'Calendar',
        events: [{ name: 'PyData', start: '2026-06-09 18:30 (Europe/Berlin)', place: 'Zalando', url: 'https://m.example/1' }],
        text: 'Welcome to the calendar',
      },
    });
    expect(prompt).toContain('WEBSITE: https://m.example/cal (Calendar)');
    expect(prompt).toContain(
      'STRUCTURED EVENTS FROM https://m.example/cal:\nEVENT 1\nname: PyData\nstart: 2026-06-09 18:30 (Europe/Berlin)\nplace: Zalando\nlink: https://m.example/1',
    );
    expect(prompt).toContain('WEBSITE TEXT FROM https://m.example/cal:\nWelcome to the calendar');
  });

  it('asks for plain text with name, date, place and link', () => {
    expect(SYSTEM_INSTRUCTION).toMatch(/plain text/);
    expect(SYSTEM_INSTRUCTION).toMatch(/never use Markdown/);
    expect(SYSTEM_INSTRUCTION).toMatch(/name, date .*place, and a link/);
  });
});

describe('a website with more events than the prompt lists', () => {
  it('lists PROMPT_EVENT_LIMIT events, upcoming and recurring ones first, and says how many more there are', () => {
    const past = Array.from({ length: 100 }, (_, i) => ({ name: `Past ${i}`, startAt: '2026-01-10' }));
    const upcoming = Array.from({ length: 30 }, (_, i) => ({ name: `Upcoming ${i}`, startAt: '2026-06-01' }));
    const weekly = { name: 'Weekly', startAt: '2025-01-07T19:00', recurrence: { rrule: 'FREQ=WEEKLY', rdates: [], exdates: [] } };
    const events = [...past.slice(0, 50), weekly, ...upcoming, ...past.slice(50)];
    const listed = promptEvents(events, now);
    expect(listed).toHaveLength(PROMPT_EVENT_LIMIT);
    expect(listed.slice(0, 31).map((e) => e.name)).toEqual(['Weekly', ...upcoming.map((e) => e.name)]);
    // The rest are the latest past events, still in the site's order.
    expect(listed[31]?.name).toBe('Past 81');
    const prompt = buildPrompt({
      question: 'q',
      timezone: 'UTC',
      now,
      website: { url: 'https://h.example/', events, text: '', droppedEvents: 7 },
    });
    expect(prompt).toContain('EVENT 50\n');
    expect(prompt).not.toContain('EVENT 51\n');
    expect(prompt).toContain('The website has 88 more structured events than listed here');
  });
});
