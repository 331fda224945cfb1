import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricSample, scrape, startFleet, type Fleet } from '../dev/harness/fleet';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';

/** The processes the api's primary runs, read from /proc. */
const processesOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the api as several processes on one port (API_PROCESSES)', () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet({ apis: 1, workers: 0, env: { API_PROCESSES: '2' } });
  });
  afterAll(async () => {
    await fleet?.close();
  });

  it('serves from two processes: asks answered, one set of metrics for the whole api, a lost process replaced', async () => {
    const api = fleet.apis[0]!;
    await until('both processes', async () => processesOf(api.pid).length === 2, 30_000);
    await until('ready', async () => (await fetch(`${api.url}/readyz`)).ok, 30_000);

    // Each request on a new connection, which the primary hands to the processes in turn; the scrape counts them
    // all, whichever process answers it.
    const series = 'http_requests_total{method="GET",route="/healthz",status="200"}';
    const before = metricSample(await scrape(api), series);
    for (let i = 0; i < 12; i++) expect((await fetch(`${api.url}/healthz`, { headers: { connection: 'close' } })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect(metricSample(await scrape(api), series)).toBe(before + 12);

    const { cookie } = await createSignedInUser(fleet.db.sql);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${api.url}/api/ask`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', origin: fleet.appUrl, connection: 'close' },
        body: JSON.stringify({ ques: 'Jazz in Lisbon this week', web: '', timezone: 'Europe/Lisbon' }),
      });
      expect(res.status).toBe(200);
      expect(await res.text()).not.toBe('');
    }

    const [lost] = processesOf(api.pid);
    process.kill(lost!, 'SIGKILL');
    await until(
      'the lost process replaced',
      async () => {
        const now = processesOf(api.pid);
        return now.length === 2 && !now.includes(lost!);
      },
      30_000,
    );
    expect((await fetch(`${api.url}/healthz`, { headers: { connection: 'close' } })).status).toBe(200);

    const last = processesOf(api.pid);
    await api.stop();
    expect(alive(api.pid)).toBe(false);
    for (const pid of last) expect(alive(pid)).toBe(false);
  });
});
