import { describeTransactionType, Messages, type ReceiptFile } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import { listTransactions, transactionFilter } from '../ledger/ledger.service.ts';
import { renderReceipt } from './receipt-pdf.ts';
import { renderStatement } from './statement-pdf.ts';

/** A PDF as the API answers it: its name and bytes (as Node serialises a Buffer). */
const asFile = (fileName: string, pdf: Buffer): ReceiptFile => ({
  fileName,
  contentType: 'application/pdf',
  pdf: { type: 'Buffer', data: [...pdf] },
});

/** The receipt of a completed transaction of the account. */
export async function receiptFile(
  db: Db,
  productName: string,
  accountId: string,
  transactionId: string,
): Promise<ReceiptFile> {
  const tx = await db
    .selectFrom('account_transactions as t')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .leftJoin('payment_cards as c', (j) => j.on(sql`c.id::text`, '=', sql`t.metadata->>'cardId'`))
    .select([
      't.id',
      't.type',
      sql<string>`t.amount::text`.as('amount'),
      't.updated_at',
      't.metadata',
      'a.name',
      'c.brand',
      'c.last4',
    ])
    .where('t.id', '=', transactionId)
    .where('t.account_id', '=', accountId)
    .where('t.status', '=', 'COMPLETED')
    .executeTakeFirst();
  if (!tx) throw notFound(Messages.transactionNotFound);
  const pdf = await renderReceipt({
    productName,
    accountName: tx.name,
    transactionId: tx.id,
    description: describeTransactionType(tx.type),
    amount: tx.amount,
    paidAt: tx.updated_at,
    card: tx.brand && tx.last4 ? `${tx.brand} •••• ${tx.last4}` : undefined,
    receiptNumber: (tx.metadata as { chargeId?: string } | null)?.chargeId,
  });
  return asFile(`receipt-${tx.id.slice(0, 8)}.pdf`, pdf);
}

/** The statement of whole UTC days: opening balance, the completed transactions, closing balance. */
export async function statementFile(
  db: Db,
  productName: string,
  accountId: string,
  dateStart: string,
  dateEnd: string,
): Promise<ReceiptFile> {
  const filter = transactionFilter({ limit: 100, offset: 0, dateStart, dateEnd, sortBy: 'createdAt', order: 'asc' });
  const balanceBefore = async (instant: Date | undefined) =>
    (
      await sql<{ b: string }>`select coalesce(sum(amount), 0)::text as b from account_transactions
        where account_id = ${accountId} and status = 'COMPLETED' and created_at < ${instant ?? new Date()}`.execute(db)
    ).rows[0]?.b ?? '0';
  const transactions = [];
  for (let offset = 0; ; offset += filter.limit) {
    const page = await listTransactions(db, accountId, { ...filter, offset });
    transactions.push(...page.transactions.filter((t) => t.status === 'COMPLETED'));
    if (offset + filter.limit >= page.totalCount) break;
  }
  const account = await db.selectFrom('accounts').select('name').where('id', '=', accountId).executeTakeFirstOrThrow();
  const pdf = await renderStatement({
    productName,
    accountName: account.name,
    accountId,
    dateStart,
    dateEnd,
    opening: await balanceBefore(filter.from),
    closing: await balanceBefore(filter.until),
    transactions,
  });
  return asFile(`statement-${dateStart}-${dateEnd}.pdf`, pdf);
}
