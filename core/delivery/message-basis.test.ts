import { describe, expect, it } from 'vitest';
import type { TimerForMessages } from '../../db/message-preview';
import { deliveredEvent } from '../../dev/harness/found-event';
import { messageBasis } from './message-basis';

const owner: TimerForMessages = {
  timer: {
    id: 7,
    question: 'AI meetups in Berlin',
    website: '',
    timezone: 'Europe/Berlin',
    deleted: false,
    email: true,
    webhookUrl: null,
    webhookSecret: null,
    pausedReason: null,
  },
  user: { id: 3, email: 'ada@example.com', name: 'Ada' },
};
const now = new Date('2026-11-25T12:00:00Z');
const run = (events: { title: string; new: boolean; changed?: boolean }[]) => ({
  id: 41,
  scheduledFor: new Date('2026-11-25T08:00:00Z'),
  status: 'succeeded',
  error: null,
  events: events.map((e) => ({
    event: deliveredEvent({ title: e.title, new: e.new, starts_at: '2026-12-03T18:30:00+01:00' }),
    changed: e.changed ?? false,
  })),
});

describe('messageBasis: what a preview and a test are built from', () => {
  it('says there is no run yet, with an empty digest for a test', () => {
    const b = messageBasis(owner, null, now);
    expect(b.basis).toBe('no-run');
    expect(b.note).toBe('No run yet: the preview appears after the first run.');
    expect(b.source.events).toEqual([]);
    expect(b.source.run.id).toBe(0);
  });

  it('takes the last run’s new and changed events, as its digest listed them', () => {
    const b = messageBasis(
      owner,
      run([
        { title: 'New one', new: true },
        { title: 'Known', new: false },
        { title: 'Moved', new: false, changed: true },
      ]),
      now,
    );
    expect(b.basis).toBe('news');
    expect(b.source.events.map((e) => [e.title, e.new])).toEqual([
      ['New one', true],
      ['Moved', false],
    ]);
    expect(b.note).toBe(
      'Built from the run of Wed 25 Nov 2026, 09:00 (Europe/Berlin): its new and changed events, as its digest listed them.',
    );
  });

  it('shows a run of only known events as news, and says so; a run that found nothing has nothing to show', () => {
    const known = messageBasis(owner, run([{ title: 'Known', new: false }]), now);
    expect(known.basis).toBe('known');
    expect(known.source.events.map((e) => [e.title, e.new])).toEqual([['Known', true]]);
    expect(known.note).toContain('found nothing new, so it sent no digest');
    expect(messageBasis(owner, run([]), now).basis).toBe('nothing');
  });
});
