import type { Db } from '../../db/database.ts';
import { findAmbassadorOfCode, insertRewardAdjustment, rewardDeposits } from './ambassador.store.ts';

/** Whether this referral code (upper case) is an ambassador's. */
export async function referralCodeExists(db: Db, code: string): Promise<boolean> {
  return (await findAmbassadorOfCode(db, code)) !== undefined;
}

/**
 * The ambassador's share follows what a card deposit still holds after a refund or dispute: the
 * reward shrinks in proportion to what was taken back, and grows again with what a won dispute
 * gives back. The deposit's own reward is posted first when its settling process stopped before,
 * so a later sweep cannot reward the whole deposit after part of it was reversed.
 */
export async function adjustDepositReward(
  db: Db,
  input: {
    depositId: string;
    /** The refund or dispute row of the ledger, and its signed amount. */
    transactionId: string;
    amount: string;
    /** What the deposit holds after that row. */
    keptAmount: string;
    /** The deposit and its reversals before this one: their reward rows are the sum so far. */
    earlierIds: string[];
  },
): Promise<void> {
  await rewardDeposits(db, input.depositId);
  await insertRewardAdjustment(db, input);
}

// What other modules use of this module's store, and only that: they never import the store.
export { findAmbassador, findAmbassadorOfCode, grantAmbassador, rewardDeposits } from './ambassador.store.ts';
