import type { Db } from '../../db/database.ts';
import { adjustDepositReward } from '../ambassador/index.ts';
import {
  fromMicros,
  insertTransaction,
  lockCardDeposit,
  minMicros,
  type ReversalRow,
  type ReversalType,
  reversalsOf,
  toMicros,
} from '../ledger/index.ts';

/**
 * What a card provider reports about a charge that paid a deposit, in millionths of USD:
 * - `refund`: the charge's refunds add up to `refundedTotal` (cumulative, as Stripe's
 *   `amount_refunded`), so a late or repeated report of an older total changes nothing;
 * - `dispute-taken`: the card holder's bank took `amount` back (a dispute opened, funds withdrawn);
 * - `dispute-won`: the dispute was decided for the merchant and the money came back.
 * An inquiry (a dispute that withdraws no funds) is none of these: it moves no money.
 */
export type CardReversal =
  | { kind: 'refund'; chargeId: string; refundedTotal: bigint; refundId?: string }
  | { kind: 'dispute-taken' | 'dispute-won'; chargeId: string; disputeId: string; amount: bigint };

export type ReversalOutcome =
  | { status: 'recorded' | 'unchanged'; accountId: string; depositId: string; transactionIds: string[] }
  | { status: 'unknown-charge' };

/**
 * Writes what a refund or dispute takes from (or gives back to) the account that the charge's deposit
 * credited: new completed ledger rows of their own types, never a change to the deposit. The deposit
 * is locked first, so reports of one charge are taken one at a time; each is idempotent (by the
 * cumulative refund, by the dispute's id), reversals never take more than the deposit still holds, a
 * refund counts against what was deposited less earlier refunds (freeing what a dispute holds when it
 * must) and a won dispute never gives back more than deposited less refunded,
 * the ambassador's reward follows in proportion, and the account is suspended when its credit
 * reaches zero (insertTransaction). Both Stripe's events and the local processor's refunds end here.
 */
export async function recordCardReversal(db: Db, reversal: CardReversal): Promise<ReversalOutcome> {
  if (!db.isTransaction) return db.transaction().execute((trx) => recordCardReversal(trx, reversal));
  const deposit = await lockCardDeposit(db, reversal.chargeId);
  if (!deposit) return { status: 'unknown-charge' };
  const deposited = toMicros(deposit.amount);
  const rows = await reversalsOf(db, deposit.id);
  const written: string[] = [];
  const kept = () => rows.reduce((sum, row) => sum + toMicros(row.amount), deposited);
  const total = (type: ReversalType) =>
    rows.filter((row) => row.type === type).reduce((sum, row) => sum - toMicros(row.amount), 0n);
  const find = (type: ReversalType, disputeId: string) =>
    rows.find((row) => row.type === type && row.disputeId === disputeId);

  const write = async (type: ReversalType, micros: bigint, key: string, details: Record<string, string>) => {
    const amount = fromMicros(micros);
    const id = await insertTransaction(db, {
      accountId: deposit.accountId,
      type,
      amount,
      status: 'COMPLETED',
      idempotencyKey: key,
      metadata: { depositId: deposit.id, chargeId: reversal.chargeId, ...details },
    });
    const row: ReversalRow = { id, type, amount, disputeId: details.disputeId ?? null, key };
    rows.push(row);
    written.push(id);
    await adjustDepositReward(db, {
      depositId: deposit.id,
      transactionId: id,
      amount,
      keptAmount: fromMicros(kept()),
      earlierIds: [deposit.id, ...rows.filter((r) => r !== row).map((r) => r.id)],
    });
    return row;
  };

  const takeDispute = async (disputeId: string, amount: bigint) => {
    const earlier = find('DISPUTE_CARD_DEPOSIT', disputeId);
    if (earlier) return earlier;
    const take = minMicros(amount, kept());
    if (take <= 0n) return undefined;
    return write('DISPUTE_CARD_DEPOSIT', -take, `card-dispute:${disputeId}`, { disputeId });
  };
  /** What a dispute took and has not given back yet. */
  const held = (dispute: ReversalRow) =>
    rows
      .filter((row) => row.type === 'DISPUTE_REINSTATED' && row.disputeId === dispute.disputeId)
      .reduce((sum, row) => sum - toMicros(row.amount), -toMicros(dispute.amount));

  if (reversal.kind === 'refund') {
    const refunded = total('REFUND_CARD_DEPOSIT');
    const take = minMicros(reversal.refundedTotal, deposited) - refunded;
    if (take > 0n) {
      const after = fromMicros(refunded + take);
      // The refunded money no longer reaches the card holder's bank through a dispute that holds it, so
      // such a dispute gives that part back first: the refund is never lost and the deposit is never
      // taken twice (kept + held = deposited − refunded, so this always frees enough).
      for (const dispute of rows.filter((row) => row.type === 'DISPUTE_CARD_DEPOSIT')) {
        const release = minMicros(held(dispute), take - kept());
        if (release <= 0n) continue;
        const disputeId = dispute.disputeId ?? '';
        await write('DISPUTE_REINSTATED', release, `card-dispute-released:${disputeId}:${after}`, {
          disputeId,
          refundedTotal: after,
        });
      }
      await write('REFUND_CARD_DEPOSIT', -take, `card-refund:${deposit.id}:${after}`, {
        refundedTotal: after,
        ...(reversal.refundId ? { refundId: reversal.refundId } : {}),
      });
    }
  } else if (reversal.kind === 'dispute-taken') {
    await takeDispute(reversal.disputeId, reversal.amount);
  } else if (!rows.some((row) => row.key === `card-dispute-reinstated:${reversal.disputeId}`)) {
    // A dispute won before its opening was reported is written as both, so the late opening finds it.
    const taken = await takeDispute(reversal.disputeId, reversal.amount);
    const give = taken ? minMicros(held(taken), deposited - total('REFUND_CARD_DEPOSIT') - kept()) : 0n;
    if (give > 0n) {
      await write('DISPUTE_REINSTATED', give, `card-dispute-reinstated:${reversal.disputeId}`, {
        disputeId: reversal.disputeId,
      });
    }
  }
  return {
    status: written.length ? 'recorded' : 'unchanged',
    accountId: deposit.accountId,
    depositId: deposit.id,
    transactionIds: written,
  };
}
