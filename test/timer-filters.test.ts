import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeReplySchema } from '../core/contract/describe';
import { timersReplySchema } from '../core/contract/timers';
import { searchWithEvents } from './support/search-events';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import { dailyTimer } from '../dev/harness/timer-input';
import { pageCalls } from './support/page-calls';

/**
 * A timer's filters (docs/decisions/timers-in-words-and-filters.md) apply to its run's events before only-new, through the real run path (Run now
 * → worker → charged search → events → deliveries), so the digest and the feeds carry only kept events. The
 * stand-ins' /sites/around-berlin.html lists events in Potsdam, Munich, online, and a Berlin "Crypto" one.
 */
describe('timer filters: place, attendance, words, date window', () => {
  let stack: TestStack;
  let cookie: string;
  let email: string;
  beforeAll(async () => {
    stack = await startTestStack({ worker: true });
    await stack.startDeliveries();
    ({
      cookie,
      user: { email },
    } = await createSignedInUser(stack.db.sql));
  });
  afterAll(async () => {
    await stack?.close();
  });

  const { call, runNow } = pageCalls(() => ({ url: stack.url, cookie }));
  const listed = async (timerId: number) =>
    timersReplySchema.parse(await (await call('GET', '/api/timers')).json()).find((t) => t.id === timerId)!;
  const mails = () => stack.standins.smtp.messages.filter((m) => m.envelope.to.includes(email));

  it('20 km around Berlin, in person, without "crypto": the run, digest and feeds carry only the Potsdam event', async () => {
    const filters = { place: { name: 'Berlin', radius_km: 20 }, attendance: 'in_person', exclude: ['crypto'], window: { next_days: 30 } };
    const res = await call('POST', '/api/schedule', {
      ...dailyTimer({ time: '05:00', ques: 'AI meetups near Berlin', web: `${stack.standins.url}/sites/around-berlin.html` }),
      filters,
    });
    expect(res.status).toBe(200);
    const timerId = ((await res.json()) as { id: number }).id;
    expect((await listed(timerId)).filters).toMatchObject({ ...filters, place: { name: 'Berlin', radius_km: 20, country: 'DE' } });

    const run = await runNow(timerId);
    expect(run.status).toBe('succeeded');
    expect(run.events.map((e) => e.title)).toEqual(['Potsdam AI Meetup']);
    // The ones the filters left out are listed apart, to show on request; never delivered or remembered.
    expect(run.hidden_events.map((e) => e.title).sort()).toEqual(['Berlin Crypto Evening', 'Munich ML Night', 'Online LLM Office Hours']);
    // The prompt asked for them too.
    expect(stack.standins.gemini.state.lastAnswerRequest?.prompt).toContain(
      '- only events within 20 km of Berlin (online events excepted)',
    );

    const mail = await until('the digest', async () => mails()[0]);
    expect(mail.subject).toBe('1 new event: AI meetups near Berlin');
    expect(mail.text).toContain('Potsdam AI Meetup');
    for (const dropped of ['Munich ML Night', 'Online LLM Office Hours', 'Berlin Crypto Evening']) expect(mail.text).not.toContain(dropped);

    const timer = await listed(timerId);
    const ics = await (await fetch(timer.ical_url!)).text();
    expect(ics.match(/^SUMMARY:.*$/gm)).toEqual(['SUMMARY:Potsdam AI Meetup']);
    const atom = await (await fetch(timer.atom_url!)).text();
    expect(atom).toContain('Potsdam AI Meetup');
    expect(atom).not.toContain('Munich ML Night');
  });

  it('filters are editable: widened to 600 km and both, the next run finds Munich and the online event new', async () => {
    const res = await call('POST', '/api/schedule', {
      ...dailyTimer({ time: '06:00', ques: 'AI meetups in Germany', web: `${stack.standins.url}/sites/around-berlin.html` }),
      filters: { place: { name: 'Berlin', radius_km: 20 }, attendance: 'in_person' },
    });
    const timerId = ((await res.json()) as { id: number }).id;
    expect((await runNow(timerId)).events.map((e) => e.title).sort()).toEqual(['Berlin Crypto Evening', 'Potsdam AI Meetup']);

    const bad = await call('PATCH', `/api/timers/${timerId}`, { filters: { place: { name: 'Atlantis', radius_km: 5 } } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/We do not know the place "Atlantis"/);

    const patched = await call('PATCH', `/api/timers/${timerId}`, {
      filters: { place: { name: 'Berlin', radius_km: 600 }, attendance: 'both' },
    });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { filters: unknown }).filters).toMatchObject({ place: { radius_km: 600 }, attendance: 'both' });
    const widened = await runNow(timerId);
    expect(
      widened.events
        .filter((e) => e.new)
        .map((e) => e.title)
        .sort(),
    ).toEqual(['Munich ML Night', 'Online LLM Office Hours']);

    expect((await call('PATCH', `/api/timers/${timerId}`, { filters: null })).status).toBe(200);
    expect((await listed(timerId)).filters).toBeNull();
  });

  it('a timer described in words with a place searches that place: its question keeps it, its filters go to Gemini', async () => {
    const described = await call('POST', '/api/timers/describe', {
      sentence: 'every Friday at 8 pm, AI meetups within 20 km of Berlin',
      timezone: 'Europe/Berlin',
    });
    expect(described.status).toBe(200);
    const { timer } = describeReplySchema.parse(await described.json());
    expect(timer.ques).toBe('AI meetups within 20 km of Berlin');
    // Saved as the page saves a described timer, then run.
    const res = await call('POST', '/api/schedule', {
      scheduleType: timer.scheduleType,
      time: timer.time,
      weekday: timer.weekday,
      ques: timer.ques,
      web: `${stack.standins.url}/sites/around-berlin.html`,
      timezone: 'Europe/Berlin',
      filters: timer.filters,
    });
    expect(res.status).toBe(200);
    const run = await runNow(((await res.json()) as { id: number }).id);
    expect(run.status).toBe('succeeded');
    const prompt = stack.standins.gemini.state.lastAnswerRequest?.prompt ?? '';
    expect(prompt).toContain('AI meetups within 20 km of Berlin');
    expect(prompt).toContain('- only events within 20 km of Berlin (online events excepted)');
    expect(run.events.map((e) => e.title)).toContain('Potsdam AI Meetup');
    expect(run.events.map((e) => e.title)).not.toContain('Munich ML Night');
  });
});

describe('search filters from the page', () => {
  let stack: TestStack;
  let cookie: string;
  beforeAll(async () => {
    stack = await startTestStack();
    ({ cookie } = await createSignedInUser(stack.db.sql));
  });
  afterAll(async () => {
    await stack?.close();
  });
  const ask = (body: unknown) =>
    fetch(`${stack.url}/api/ask`, {
      method: 'POST',
      headers: { cookie, origin: stack.url, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('an ask with filters keeps only matching events in its reply, and refuses a place it does not know', async () => {
    const web = `${stack.standins.url}/sites/around-berlin.html`;
    const res = await ask({ ques: 'AI meetups', web, filters: { place: { name: 'Potsdam', radius_km: 5 }, attendance: 'both' } });
    expect(res.status).toBe(200);
    await res.text();
    // An ask's events are found after its reply has ended.
    const search = await searchWithEvents(stack.url, res.headers.get('x-search-id'), { cookie });
    expect(search.events.map((e) => e.title).sort()).toEqual(['Online LLM Office Hours', 'Potsdam AI Meetup']);

    const refused = await ask({ ques: 'AI meetups', web, filters: { place: { name: 'Atlantis', radius_km: 5 } } });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/^We do not know the place "Atlantis"/);
  });
});
