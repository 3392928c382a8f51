import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { type ReversalOutcome, recordCardReversal } from '../billing/index.ts';
import { fromMicros, toMicros } from '../ledger/index.ts';
import { ProcessorError } from './local-processor.ts';
import { insertRefund, lockChargeForRefund } from './processor.store.ts';

export interface LocalRefund {
  refundId: string;
  chargeId: string;
  /** This refund and all of the charge's refunds so far, in USD. */
  amount: string;
  refundedTotal: string;
  ledger: ReversalOutcome;
}

/**
 * Refunds a local processor charge, whole or in part (the operator's `charge refund`): the refund and
 * its ledger rows are written in one transaction, through the same ledger path as Stripe's
 * `charge.refunded` events, so the ledger never misses a refund the processor made.
 */
export async function refundLocalCharge(db: Db, chargeId: string, amount?: string): Promise<LocalRefund> {
  return db.transaction().execute(async (trx) => {
    const charge = await lockChargeForRefund(trx, chargeId);
    if (!charge) throw new ProcessorError(`No such charge: ${chargeId}.`, 'Not Found');
    if (charge.status !== 'SUCCEEDED')
      throw new ProcessorError('Only a succeeded charge can be refunded.', 'Bad Request');
    const left = toMicros(charge.amount) - toMicros(charge.refunded);
    if (left <= 0n) throw new ProcessorError('This charge is already refunded in full.', 'Bad Request');
    const refund = amount === undefined ? left : toMicros(amount);
    if (refund > left) {
      throw new ProcessorError(`At most ${fromMicros(left)} USD of this charge is left to refund.`, 'Bad Request');
    }
    const refundId = `re_${randomBytes(12).toString('hex')}`;
    await insertRefund(trx, { id: refundId, chargeId, amount: fromMicros(refund) });
    const refundedTotal = toMicros(charge.refunded) + refund;
    const ledger = await recordCardReversal(trx, { kind: 'refund', chargeId, refundedTotal, refundId });
    return { refundId, chargeId, amount: fromMicros(refund), refundedTotal: fromMicros(refundedTotal), ledger };
  });
}
