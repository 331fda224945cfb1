import { type Billing, refundCredit, takeCredit } from '../../db/accounts';
import type { Sql, Tx } from '../../db/client';
import { ALLOWANCES } from '../plans';
import { refundRunCredit, refundRunCreditIn, takeRunCredit } from '../../db/timer-runs';

export type CreditTake =
  | { kind: 'taken'; epoch: number }
  | { kind: 'none_left'; billing: Billing }
  /** A timer run that another execution already ended: nothing to charge and nothing to do. */
  | { kind: 'run_ended' };

/** Where a search's credit comes from and goes back to. */
export interface CreditSource {
  take(): Promise<CreditTake>;
  /** Gives the credit back into the allowance period `epoch` names (a no-op once that period is over). */
  giveBack(epoch: number): Promise<void>;
  /** The same, inside a transaction the caller holds (the one that marks the search failed). */
  giveBackIn(tx: Tx, epoch: number): Promise<void>;
}

/**
 * An interactive search pays for itself; a timer run holds one credit on its run row across retries and
 * redeliveries, so a fire costs one credit however many executions it takes.
 */
export function creditSourceFor(sql: Sql, userId: number, timerRunId?: number): CreditSource {
  if (timerRunId === undefined) {
    return {
      take: async () => {
        const credit = await takeCredit(sql, userId, ALLOWANCES);
        return credit.ok ? { kind: 'taken', epoch: credit.billing.usageEpoch } : { kind: 'none_left', billing: credit.billing };
      },
      giveBack: (epoch) => refundCredit(sql, userId, epoch),
      giveBackIn: (tx, epoch) => refundCredit(tx, userId, epoch),
    };
  }
  return {
    take: () => takeRunCredit(sql, { id: timerRunId, userId }, ALLOWANCES),
    giveBack: () => refundRunCredit(sql, { id: timerRunId, userId }),
    giveBackIn: (tx) => refundRunCreditIn(tx, { id: timerRunId, userId }),
  };
}
