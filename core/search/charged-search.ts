import { type Billing, creditLikelyLeft, getBilling, startSearchTakingCredit } from '../../db/accounts';
import type { Sql } from '../../db/client';
import { failSearchGivingBack, finishSearchRecord, recordSearchCreditEpoch, startSearchRecord } from '../../db/searches';
import { runUnpayable } from '../../db/timer-runs';
import { eventsInputOf } from './events-job';
import { planOf, ALLOWANCES } from '../plans';
import { type CreditSource, type CreditTake, creditSourceFor } from './credit-source';
import { SearchError } from '../search-error';
import { heldAnswer } from './held-answer';
import { answerSearch, type PreparedSearch, prepareSearch, type SearchDeps, type SearchInput, type SearchResult } from './index';

export interface ChargedSearchDeps extends SearchDeps {
  sql: Sql;
}

export interface ChargedSearchRequest {
  userId: number;
  input: SearchInput;
  /**
   * Each piece of answer text as it arrives (awaited); an interactive caller streams it on. Without it nobody
   * reads along, so the answer is asked for whole (one reply, less CPU than a stream of pieces).
   */
  onText?: (text: string) => void | Promise<void>;
  signal?: AbortSignal;
  /** The timer run this search is an attempt of, with its timer; absent for an interactive search. */
  timerRun?: { id: number; timerId: number; checkedOnly?: boolean };
  /** Told the search's id as soon as it is recorded, before any answer text. */
  onRecorded?: (searchId: number) => void;
  /**
   * Ask Gemini while the credit is taken and the search recorded, not after (docs/decisions/ask.md): for a caller that
   * checked a credit is very likely left. The text is held until the credit is taken; a refused credit aborts
   * the request, and nothing of it reaches `onText`.
   */
  answerWhileCharging?: boolean;
}

export type ChargedSearchOutcome =
  | {
      kind: 'answered';
      searchId: number;
      result: SearchResult;
      firstTextAt: Date;
      unrecorded?: unknown;
    }
  /** Refused before any cost: the allowance is used up. Nothing was charged. */
  | { kind: 'no_credits'; searchId: number; message: string; billing: Billing }
  /** `delivered` says whether answer text reached `onText` (the row keeps it as its answer); the credit went back. */
  | { kind: 'failed'; searchId: number; error: SearchError; delivered: boolean; firstTextAt: Date | null; unrecorded?: unknown }
  /** The timer run this attempt belongs to had already ended (a redelivered job): nothing was done. */
  | { kind: 'run_ended'; searchId: number };

const unexpected = (err: unknown) =>
  err instanceof SearchError ? err : new SearchError('upstream_failed', 'The AI service failed. Please try again.', true, { cause: err });

/** The sentence for an allowance that is used up, the same for an interactive search and a timer run. */
export function noCreditsMessage(billing: Billing): string {
  return `You have used all ${billing.allowance} searches of your ${planOf(billing.tier).name.toLowerCase()} plan this month.`;
}

/**
 * One charged search, the same for /api/ask and a timer run: reads the website (a refused or unreadable one
 * costs nothing), takes the credit and records the search, streams Gemini's answer through `onText`, and
 * applies the one refund rule: a failed search gives its credit back, into the allowance period it came from,
 * in the same transaction that marks it failed. Every call leaves exactly one `searches` row with its outcome; an
 * answered one has its events still to find (core/search/find-events.ts). Throws only when our own bookkeeping
 * (Postgres) fails before the answer started; after that the outcome is returned and a failed final write is the
 * caller's to log.
 */
export async function runChargedSearch(deps: ChargedSearchDeps, req: ChargedSearchRequest): Promise<ChargedSearchOutcome> {
  const { sql } = deps;
  const record = {
    userId: req.userId,
    question: req.input.question,
    website: req.input.website,
    model: deps.config.gemini.model,
    timerRunId: req.timerRun?.id ?? null,
    filters: req.input.filters ?? null,
  };

  // Reading the website costs us a fetch: a user with no credit left gets the refusal before it, not after.
  // A caller that already saw a credit very likely left (answerWhileCharging) skips the read when there is no
  // website: Gemini is asked at once. With a website, the fetch comes before Gemini anyway and takes far
  // longer than this read, so the read stays and no unpaid fetch leaves; a timer run that already holds its
  // credit (a retry) is paid for.
  const unpayable =
    req.answerWhileCharging && !req.input.website
      ? false
      : req.timerRun
        ? await runUnpayable(sql, { id: req.timerRun.id, userId: req.userId }, ALLOWANCES)
        : !(await creditLikelyLeft(sql, req.userId, ALLOWANCES));
  if (unpayable) {
    const billing = await getBilling(sql, req.userId, ALLOWANCES);
    if (billing) {
      const message = noCreditsMessage(billing);
      const searchId = await startSearchRecord(sql, record);
      await finishSearchRecord(sql, searchId, { status: 'refused', error: message });
      return { kind: 'no_credits', searchId, message, billing };
    }
  }

  let prepared: PreparedSearch;
  try {
    prepared = await prepareSearch(deps, req.input, req.signal, String(req.userId));
  } catch (err) {
    const error =
      err instanceof SearchError ? err : new SearchError('website_failed', 'We could not read the website. Please try again.', false);
    const searchId = await startSearchRecord(sql, record);
    await finishSearchRecord(sql, searchId, { status: error.code === 'website_refused' ? 'refused' : 'failed', error: error.message });
    return { kind: 'failed', searchId, error, delivered: false, firstTextAt: null };
  }

  const credits: CreditSource = creditSourceFor(sql, req.userId, req.timerRun?.id);
  const delivery = req.onText ? 'streamed' : 'whole';
  const early = req.answerWhileCharging
    ? heldAnswer((onText, signal) => answerSearch(deps, prepared, onText, signal, delivery), req.signal)
    : null;
  // An interactive search's record and credit are one statement; a timer run's two independent writes are sent
  // together. Either way the search waits one round trip to Postgres, not two.
  const [recorded, charged] = req.timerRun
    ? await Promise.allSettled([startSearchRecord(sql, record), credits.take()])
    : await recordTakingCredit(sql, record, credits);
  if (recorded.status === 'rejected') {
    early?.cancel();
    if (charged.status === 'fulfilled' && charged.value.kind === 'taken') await credits.giveBack(charged.value.epoch);
    throw recorded.reason;
  }
  const searchId = recorded.value;
  req.onRecorded?.(searchId);
  if (charged.status === 'rejected') {
    early?.cancel();
    await finishSearchRecord(sql, searchId, { status: 'failed', error: 'Could not take a credit.' });
    throw charged.reason;
  }
  const credit = charged.value;
  if (credit.kind !== 'taken') early?.cancel();
  if (credit.kind === 'run_ended') {
    await finishSearchRecord(sql, searchId, { status: 'refused', error: 'The timer run had already ended.' });
    return { kind: 'run_ended', searchId };
  }
  if (credit.kind === 'none_left') {
    const message = noCreditsMessage(credit.billing);
    await finishSearchRecord(sql, searchId, { status: 'refused', error: message });
    return { kind: 'no_credits', searchId, message, billing: credit.billing };
  }

  let shown = '';
  let firstTextAt: Date | null = null;
  const onText = async (text: string) => {
    if (shown.length === 0) firstTextAt = new Date();
    shown += text;
    await req.onText?.(text);
  };
  let result: SearchResult;
  try {
    early?.release(onText);
    result = await (early ? early.result : answerSearch(deps, prepared, onText, req.signal, delivery));
  } catch (err) {
    const error = unexpected(err);
    const delivered = shown.length > 0;
    // The one refund rule: a failed search costs nothing, whatever failed and however much of it was shown. The
    // credit goes back in the write that marks the search failed, and only if that write ended it.
    const unrecorded = await settle(
      failSearchGivingBack(
        sql,
        searchId,
        {
          error: error.code === 'aborted' && delivered ? 'The client went away before the answer was complete.' : error.message,
          answerChars: shown.length,
          firstChunkAt: firstTextAt,
          // The text shown before the failure is kept with it (GET /api/searches/:id shows it beside the failure).
          answer: delivered ? shown : null,
          // What Gemini reported using before the failure is billed: the month's spend (and its guard) sees it.
          calls: error.spent && error.spent.usage.calls > 0 ? [{ ...error.spent.usage, costUsd: error.spent.costUsd }] : [],
        },
        (tx) => credits.giveBackIn(tx, credit.epoch),
      ).then(() => undefined),
    );
    return { kind: 'failed', searchId, error, delivered, firstTextAt, unrecorded };
  }
  // A part answer cut at the model's output limit is shown as such and not charged (docs/decisions/gemini-and-cost.md); its cost is
  // still recorded below.
  if (result.cut) await credits.giveBack(credit.epoch);
  // The search ends answered with its events pending: they are found by its id (core/search/find-events.ts), after
  // an ask's reply in the worker, after a timer run's answer in its own job; what that reads is kept beside it.
  const unrecorded = await settle(
    finishSearchRecord(sql, searchId, {
      status: 'answered',
      answerChars: result.answer.length,
      calls: [{ ...result.usage, costUsd: result.costUsd }],
      searchSuggestions: result.searchSuggestions,
      firstChunkAt: firstTextAt,
      answer: result.answer,
      eventsStatus: 'pending',
      eventsInput: eventsInputOf(req.input.timezone, prepared, result),
    }),
  );
  return { kind: 'answered', searchId, result, firstTextAt: firstTextAt ?? new Date(), unrecorded };
}

/**
 * An interactive search's record and credit in one statement (startSearchTakingCredit); when that take finds no
 * credit, the credit source's own take decides (it rolls an ended free period first, or refuses with the account's
 * billing).
 */
async function recordTakingCredit(
  sql: Sql,
  record: { userId: number; question: string; website: string; model: string; filters: unknown },
  credits: CreditSource,
): Promise<[PromiseSettledResult<number>, PromiseSettledResult<CreditTake>]> {
  let started: { searchId: number; epoch: number | null };
  try {
    started = await startSearchTakingCredit(sql, record, ALLOWANCES);
  } catch (err) {
    const failed = { status: 'rejected' as const, reason: err };
    return [failed, failed];
  }
  const recorded = { status: 'fulfilled' as const, value: started.searchId };
  if (started.epoch !== null) return [recorded, { status: 'fulfilled', value: { kind: 'taken', epoch: started.epoch } }];
  const [charged] = await Promise.allSettled([credits.take()]);
  if (charged!.status === 'fulfilled' && charged!.value.kind === 'taken') {
    const { epoch } = charged!.value;
    // The row learns where its credit came from, for the sweep of searches a stopped process left running; a
    // credit the row cannot name is given back, and the search fails as any bookkeeping failure does.
    try {
      await recordSearchCreditEpoch(sql, started.searchId, epoch);
    } catch (err) {
      await credits.giveBack(epoch);
      return [recorded, { status: 'rejected', reason: err }];
    }
  }
  return [recorded, charged!];
}

/** The answer is out by now: a failed final write is reported with the outcome, never thrown over it. */
async function settle(write: Promise<void>): Promise<unknown> {
  try {
    await write;
    return undefined;
  } catch (err) {
    return err;
  }
}
