import { randomUUID } from 'node:crypto';
import { AppError, badRequest, DEPOSIT_MAX, type DepositResult, Messages, notFound } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import { findCustomerId } from '../accounts/index.ts';
import { rewardDeposits } from '../ambassador/index.ts';
import { type CardProvider, type ChargeResult, findCard } from '../cards/index.ts';
import {
  type ClaimedDeposit,
  claimDeposit,
  findLedgerRow,
  settleTransaction,
  stalePendingDeposits,
} from '../ledger/index.ts';
import { depositMinimum } from './auto-pay.service.ts';

/** A PENDING deposit with no charge behind it this long after its start was never paid. */
const UNPAID_AFTER_SECONDS = 3600;

/**
 * One-time deposits (spec A §4-§5, ARCHITECTURE §4). The ledger row is written PENDING under the
 * request's idempotency key before the card is charged with the same key, then settled; so a
 * double click, a retry or a crash between the two never charges twice nor loses a paid deposit.
 */
export class DepositService {
  constructor(
    private readonly db: Db,
    private readonly provider: CardProvider,
  ) {}

  async deposit(
    accountId: string,
    input: { cardId: string; depositAmount: number },
    clientKey: string | undefined,
  ): Promise<DepositResult> {
    const amount = await this.checkedAmount(input.depositAmount);
    const card = await findCard(this.db, input.cardId);
    if (!card || card.accountId !== accountId) throw notFound(Messages.cardNotFound);
    if (!card.isDefault) throw badRequest(Messages.setDefaultCard);
    const customerId = await findCustomerId(this.db, accountId);
    if (!customerId) throw notFound(Messages.cardNotFound);

    const row = await this.post({
      accountId,
      cardId: card.id,
      token: card.providerToken,
      customerId,
      amount,
      key: `deposit:${accountId}:${clientKey ?? randomUUID()}`,
      type: 'DEPOSIT_ONE_TIME',
    });
    return this.answer(row, amount);
  }

  /**
   * Writes the PENDING row under the key, charges the card with the same key and settles the row;
   * a row an earlier call settled is returned as it is; a key used for another amount or card is
   * refused. Shared by one-time deposits and auto pay.
   */
  async post(input: {
    accountId: string;
    cardId: string;
    token: string;
    customerId: string;
    amount: number;
    key: string;
    type: 'DEPOSIT_ONE_TIME' | 'DEPOSIT_AUTO';
  }): Promise<Pick<ClaimedDeposit, 'id' | 'status' | 'metadata' | 'amount'>> {
    const row = await claimDeposit(this.db, {
      accountId: input.accountId,
      type: input.type,
      amount: String(input.amount),
      status: 'PENDING',
      idempotencyKey: input.key,
      metadata: { cardId: input.cardId },
    });
    const sameRequest = Number(row.amount) === input.amount && row.metadata.cardId === input.cardId;
    // A person's repeat must be the same deposit; auto pay finishes the row its key first made.
    if (!sameRequest && input.type === 'DEPOSIT_ONE_TIME') throw badRequest(Messages.idempotencyReused);
    if (row.status !== 'PENDING') return row;
    let token = input.token;
    if (!sameRequest) {
      const card = await findCard(this.db, String(row.metadata.cardId));
      if (!card) {
        await settleTransaction(this.db, row.id, 'FAILED', { failure: 'The card of this payment was removed.' });
        return findLedgerRow(this.db, row.id);
      }
      token = card.providerToken;
    }
    const charge = await this.provider.charge({
      customerId: input.customerId,
      token,
      amount: row.amount,
      idempotencyKey: input.key,
      description: `${input.type === 'DEPOSIT_AUTO' ? 'Auto deposit' : 'Deposit'} of ${Number(row.amount)} USD`,
    });
    await this.settle(row.id, charge);
    // What the ledger holds now, not what this call hoped: another process may have settled it.
    return findLedgerRow(this.db, row.id);
  }

  /**
   * Settles deposits left PENDING by a stopped process, from the provider's own record of the
   * charge; one with no charge after an hour was never paid. Runs at start; safe to repeat.
   */
  async reconcile(olderThanSeconds = 60): Promise<number> {
    let settled = 0;
    for (const row of await stalePendingDeposits(this.db, olderThanSeconds)) {
      const charge = await this.provider.findCharge(row.idempotency_key ?? '');
      if (charge) await this.settle(row.id, charge);
      else if (Number(row.age) > UNPAID_AFTER_SECONDS) {
        await settleTransaction(this.db, row.id, 'FAILED', { failure: 'The payment was not completed.' });
      } else continue;
      settled += 1;
    }
    return settled;
  }

  private async checkedAmount(value: number): Promise<number> {
    if (!value) throw badRequest(Messages.depositAmountRequired);
    if (!Number.isInteger(value)) throw badRequest(Messages.depositWhole);
    const min = await depositMinimum(this.db);
    if (value < min) throw badRequest(Messages.depositMin(min));
    if (value > DEPOSIT_MAX) throw badRequest(Messages.depositMax);
    return value;
  }

  private outcome(charge: ChargeResult) {
    return charge.status === 'succeeded'
      ? { status: 'COMPLETED' as const, metadata: { receiptUrl: charge.receiptUrl, chargeId: charge.chargeId } }
      : { status: 'FAILED' as const, metadata: { failure: charge.message, chargeId: charge.chargeId } };
  }

  private async settle(id: string, charge: ChargeResult): Promise<void> {
    const { status, metadata } = this.outcome(charge);
    await settleTransaction(this.db, id, status, metadata);
    if (status === 'COMPLETED') await rewardDeposits(this.db, id);
  }

  private answer(row: Pick<ClaimedDeposit, 'id' | 'status' | 'metadata'>, amount: number): DepositResult {
    if (row.status === 'FAILED') {
      throw new AppError('card_error', String(row.metadata.failure ?? 'Your card was declined.'));
    }
    return { transactionId: row.id, status: 'COMPLETED', amount, receiptUrl: String(row.metadata.receiptUrl ?? '') };
  }
}
