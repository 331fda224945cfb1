import { PLANS } from '../core/plans';
import { insertTimer } from '../db/timers';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { createTimerRun } from '../core/timers/run';
import type { BenchResult, Row } from './lib/report';

// The share of a plan's price its searches may cost at full use (the cost goal in BENCHMARKS.md).
const GOAL_SHARE = 0.4;

interface Spent {
  calls: number;
  promptTokens: number;
  outputTokens: number;
  thinkingTokens: number;
  queries: number;
  usd: number;
}

async function lastSearch(stack: TestStack, userId: number): Promise<Spent> {
  const [row] = await stack.db.sql<
    {
      gemini_calls: number;
      prompt_tokens: number;
      output_tokens: number;
      thinking_tokens: number;
      grounding_queries: number;
      cost_usd: string;
    }[]
  >`select gemini_calls, prompt_tokens, output_tokens, thinking_tokens, grounding_queries, cost_usd
    from searches where user_id = ${userId} and status = 'answered' order by id desc limit 1`;
  if (!row) throw new Error('the search was not answered');
  return {
    calls: row.gemini_calls,
    promptTokens: row.prompt_tokens,
    outputTokens: row.output_tokens,
    thinkingTokens: row.thinking_tokens,
    queries: row.grounding_queries,
    usd: Number(row.cost_usd),
  };
}

async function askOnce(stack: TestStack, web: string): Promise<Spent> {
  const { user, cookie } = await createSignedInUser(stack.db.sql);
  const res = await fetch(`${stack.url}/api/ask`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', origin: stack.url },
    body: JSON.stringify({ ques: 'AI conferences in Berlin next month', web, timezone: 'Europe/Berlin' }),
  });
  await res.text();
  return lastSearch(stack, user.id);
}

async function timerRunOnce(stack: TestStack, web: string, tier: 'flex' | 'standard'): Promise<Spent> {
  const { user } = await createSignedInUser(stack.db.sql);
  const timer = await insertTimer(stack.db.sql, user.id, dailyTimer({ ques: 'AI conferences in Berlin next month', web }));
  const config = { ...stack.config, gemini: { ...stack.config.gemini, timerTier: tier } };
  const runTimer = createTimerRun({ ...stack.deps, config, sql: stack.db.sql, deliveriesQueue: stack.deliveriesQueue });
  await runTimer({ timerId: timer.id, scheduledFor: new Date(), byHand: true, attempt: 1, lastAttempt: true });
  return lastSearch(stack, user.id);
}

const spentRows = (label: string, s: Spent): Row[] => [
  { metric: `${label}: Gemini calls`, value: s.calls, unit: 'calls' },
  { metric: `${label}: prompt tokens`, value: s.promptTokens, unit: 'tokens' },
  { metric: `${label}: output + thinking tokens`, value: s.outputTokens + s.thinkingTokens, unit: 'tokens' },
  { metric: `${label}: grounding queries`, value: s.queries, unit: 'queries' },
  { metric: `${label}: cost`, value: s.usd * 100, unit: '¢' },
];

/**
 * What one search costs at the configured prices (Google's published ones by default), measured on the Gemini
 * stand-in's realistic sizes: an ask and a timer run, each with and without a website; then what a paid plan's
 * searches cost at full use against its price. "Before" is a timer run as every run was before decision 042:
 * two calls (the answer, then its events) and the two search queries the model runs unasked; measured by
 * making the stand-in's model refuse the one call and ignore the prompt's few-searches line, after the rest.
 */
export async function run(): Promise<BenchResult[]> {
  const stack = await startTestStack({ env: { USER_RATE_PER_MINUTE: '10000' } });
  try {
    const site = `${stack.standins.url}/sites/berlin-ai.html`;
    const models = stack.standins.gemini.models;
    const ask = await askOnce(stack, '');
    const askSite = await askOnce(stack, site);
    const runStandard = await timerRunOnce(stack, '', 'standard');
    const run = await timerRunOnce(stack, '', 'flex');
    const runSite = await timerRunOnce(stack, site, 'flex');
    // A model that does not follow the few-searches line: what the ceiling and the prompt cannot prevent.
    models.change('gemini-flash-latest', { heedsFewSearches: false });
    const runIgnoring = await timerRunOnce(stack, '', 'flex');
    const askIgnoring = await askOnce(stack, '');
    // Last: the process remembers the refusal of the one call for this model.
    models.change('gemini-flash-latest', { structuredWithTools: false });
    const runBefore = await timerRunOnce(stack, '', 'flex');
    models.reset();
    const planRows: Row[] = PLANS.filter((p) => p.priceCents > 0).flatMap((plan) => {
      const price = plan.priceCents / 100;
      const full = (s: Spent) => s.usd * plan.searchesPerMonth;
      const share = (s: Spent) => (100 * full(s)) / price;
      return [
        {
          metric: `${plan.name} (${plan.searchesPerMonth}): timer runs at full use, cost`,
          value: full(run),
          unit: 'USD',
          baseline: full(runBefore),
        },
        {
          metric: `${plan.name}: timer runs at full use, share of $${price}`,
          value: share(run),
          unit: '%',
          baseline: share(runBefore),
          goal: `≤ ${GOAL_SHARE * 100}%`,
          met: full(run) <= GOAL_SHARE * price,
        },
        {
          metric: `${plan.name}: margin with timer runs at full use`,
          value: price - full(run),
          unit: 'USD',
          baseline: price - full(runBefore),
        },
        {
          metric: `${plan.name}: grounded asks at full use, share of $${price}`,
          value: share(ask),
          unit: '%',
          goal: `≤ ${GOAL_SHARE * 100}%`,
          met: full(ask) <= GOAL_SHARE * price,
        },
        { metric: `${plan.name}: margin with grounded asks at full use`, value: price - full(ask), unit: 'USD' },
        {
          metric: `${plan.name}: timer runs at full use, share, model ignoring the few-searches line`,
          value: share(runIgnoring),
          unit: '%',
          goal: `≤ ${GOAL_SHARE * 100}%`,
          met: full(runIgnoring) <= GOAL_SHARE * price,
        },
      ];
    });
    return [
      {
        name: 'cost',
        method:
          'One ask and one timer run each with and without a website, against the Gemini stand-in (usage sizes of real grounded replies, decision 070: a grounded Gemini 3 call reads 18,329 tool-use prompt tokens, a 2.5 one about 210 a query; 2 queries unless the prompt asks for as few as it can, then 1), priced with the default price table (core/gemini/prices.ts) for the model gemini-flash-latest answers with. Timer runs on Flex unless marked; baseline column: a run as before decision 042 (two calls, two queries, Flex). A plan at full use: its monthly searches × one search.',
        rows: [
          ...spentRows('ask, no website (grounded)', ask),
          ...spentRows('ask, with website', askSite),
          ...spentRows('timer run, no website, standard tier', runStandard),
          ...spentRows('timer run, no website, Flex', run),
          ...spentRows('timer run, with website, Flex', runSite),
          ...spentRows('timer run, no website, Flex, model ignoring the few-searches line', runIgnoring),
          ...spentRows('ask, no website, model ignoring the few-searches line', askIgnoring),
          ...spentRows('timer run, no website, Flex, before decision 042 (two calls, two queries)', runBefore),
          ...planRows,
        ],
      },
    ];
  } finally {
    await stack.close();
  }
}
