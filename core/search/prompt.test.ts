import { describe, expect, it } from 'vitest';
import { SYSTEM_INSTRUCTION } from '../gemini/system-instruction';
import { buildPrompt, todayIn } from './prompt';

const now = new Date('2026-05-14T23:30:00Z');

describe('buildPrompt', () => {
  it("gives today's date in the user's time zone and the question", () => {
    expect(todayIn('Europe/Berlin', now)).toBe('Friday, 15 May 2026');
    expect(todayIn('America/New_York', now)).toBe('Thursday, 14 May 2026');
    const prompt = buildPrompt({ question: 'AI events in Berlin', timezone: 'Europe/Berlin', now, website: null });
    expect(prompt).toContain("Today is Friday, 15 May 2026. The user's time zone is Europe/Berlin");
    expect(prompt).toContain('QUESTION: AI events in Berlin');
    expect(prompt).toContain('Search the web');
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
