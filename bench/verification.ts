import { performance } from 'node:perf_hooks';
import { searchReplySchema } from '../core/contract/event-replies';
import { startTestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { percentile, type BenchResult } from './lib/report';

const SEARCHES = 20;
const GOAL_SECONDS = 5;

/**
 * The check of a grounded answer's events against their pages, on the stand-ins: asks whose answer states one
 * wrong date and names one event its page does not list (dev/standins/grounded-answer.ts), each followed from
 * the moment the stand-in finished the answer to the end of the reply, by which the events are extracted,
 * checked and stored; and the sample pages each search read.
 */
export async function run(): Promise<BenchResult[]> {
  const stack = await startTestStack();
  try {
    const { cookie } = await createSignedInUser(stack.db.sql);
    const gemini = stack.standins.gemini;
    const afterAnswer: number[] = [];
    const pagesRead: number[] = [];
    let corrected = 0;
    let unconfirmed = 0;
    for (let i = 0; i < SEARCHES; i++) {
      await stack.db.sql`update accounts set tier = 'pro', searches_used = 0`;
      gemini.state.siteReads.length = 0;
      const res = await fetch(`${stack.url}/api/ask`, {
        method: 'POST',
        headers: { cookie, origin: stack.url, 'content-type': 'application/json' },
        body: JSON.stringify({ ques: `AI events in Berlin (wrong date) ${i}`, web: '', timezone: 'Europe/Berlin' }),
      });
      await res.text();
      const ended = performance.timeOrigin + performance.now();
      afterAnswer.push((ended - gemini.state.lastAnswerFinishedAt) / 1000);
      pagesRead.push(gemini.state.siteReads.length);
      const reply = await fetch(`${stack.url}/api/searches/${res.headers.get('x-search-id')}`, { headers: { cookie } });
      const events = searchReplySchema.parse(await reply.json()).events;
      corrected += events.filter((e) => e.verification?.status === 'corrected').length;
      unconfirmed += events.filter((e) => e.verification?.status === 'unconfirmed').length;
    }
    const p95 = percentile(afterAnswer, 95);
    return [
      {
        name: 'verification',
        method:
          `${SEARCHES} asks in a row through the in-process api against the stand-ins, each a grounded answer whose three events ` +
          'are checked against the sample pages its grounding links redirect to (one own link, one redirect; one date wrong by a ' +
          'day and two hours, one event unlisted). Time: from the stand-in finishing the answer to the end of the reply, by which ' +
          'the extraction call has answered and the events are checked and stored (no Gemini call is added by the check). Pages: the sample pages each search requested.',
        rows: [
          { metric: 'answer end → checked events, p50', value: percentile(afterAnswer, 50), unit: 's' },
          { metric: 'answer end → checked events, p95', value: p95, unit: 's', goal: `≤ ${GOAL_SECONDS} s`, met: p95 <= GOAL_SECONDS },
          { metric: 'pages read per search, mean', value: pagesRead.reduce((a, b) => a + b, 0) / SEARCHES, unit: 'pages', goal: '≤ 5' },
          {
            metric: 'pages read per search, most',
            value: Math.max(...pagesRead),
            unit: 'pages',
            goal: '≤ 5',
            met: Math.max(...pagesRead) <= 5,
          },
          { metric: 'wrong dates corrected', value: corrected / SEARCHES, unit: 'per search', goal: '1' },
          { metric: 'unlisted events unconfirmed', value: unconfirmed / SEARCHES, unit: 'per search', goal: '1' },
        ],
      },
    ];
  } finally {
    await stack.close();
  }
}
