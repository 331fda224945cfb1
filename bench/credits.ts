import { startTestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import type { BenchResult } from './lib/report';

const ASKS = 200;
const CREDITS = 10;
const MAX_AT_ONCE = 100;

/**
 * A correctness figure: 200 concurrent asks from one user holding 10 credits. The per-user concurrency cap
 * turns some away with 429 before they reach the credit; of those that do, exactly 10 may be answered.
 */
export async function run(): Promise<BenchResult[]> {
  // The per-user cap at its highest, so 100 asks at a time race for the credit rather than for a search slot.
  // The per-user request rate would refuse most of these first; this measures the credit check, not the rate.
  const stack = await startTestStack({ env: { SEARCH_CONCURRENCY_PER_USER: String(MAX_AT_ONCE), USER_RATE_PER_MINUTE: '10000' } });
  try {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    const answered: number[] = [];
    const statuses = new Map<number, number>();
    // Repeat in waves so every ask eventually reaches the credit check despite the per-user cap.
    let pending = ASKS;
    while (pending > 0) {
      const wave = await Promise.all(
        Array.from({ length: pending }, async () => {
          const res = await fetch(`${stack.url}/api/ask`, {
            method: 'POST',
            headers: { cookie, 'content-type': 'application/json', origin: stack.url },
            body: JSON.stringify({ ques: 'AI conferences in Berlin', web: '', timezone: 'Europe/Berlin' }),
          });
          await res.text();
          return res.status;
        }),
      );
      pending = wave.filter((s) => s === 429).length;
      for (const s of wave) if (s !== 429) statuses.set(s, (statuses.get(s) ?? 0) + 1);
      answered.push(wave.filter((s) => s === 200).length);
    }
    const [row] = await stack.db.sql<{ searches_used: number }[]>`select searches_used from accounts where user_id = ${user.id}`;
    return [
      {
        name: 'credits',
        method: `${ASKS} concurrent POST /api/ask from one free user (${CREDITS} credits), with SEARCH_CONCURRENCY_PER_USER at its maximum (${MAX_AT_ONCE}); asks refused by that cap (429) are sent again until each got a final answer.`,
        rows: [
          { metric: 'answered (200)', value: statuses.get(200) ?? 0, unit: 'asks', goal: `= ${CREDITS}` },
          { metric: 'refused for credits (402)', value: statuses.get(402) ?? 0, unit: 'asks', goal: `= ${ASKS - CREDITS}` },
          {
            metric: 'other statuses',
            value: [...statuses].filter(([s]) => s !== 200 && s !== 402).reduce((n, [, c]) => n + c, 0),
            unit: 'asks',
            goal: '= 0',
          },
          { metric: 'searches used afterwards', value: row!.searches_used, unit: 'credits', goal: `= ${CREDITS}` },
        ],
      },
    ];
  } finally {
    await stack.close();
  }
}
