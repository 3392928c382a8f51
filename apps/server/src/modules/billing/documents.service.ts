import { describeTransactionType, Messages, notFound, type ReceiptFile } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import { accountName } from '../accounts/index.ts';
import { cardLabel } from '../cards/index.ts';
import { balanceBefore, findCompletedTransaction, listTransactions, transactionFilter } from '../ledger/index.ts';
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
  const tx = await findCompletedTransaction(db, accountId, transactionId);
  if (!tx) throw notFound(Messages.transactionNotFound);
  const { cardId, chargeId } = tx.metadata as { cardId?: unknown; chargeId?: string };
  const pdf = await renderReceipt({
    productName,
    accountName: (await accountName(db, accountId)) ?? '',
    transactionId: tx.id,
    description: describeTransactionType(tx.type),
    amount: tx.amount,
    paidAt: tx.updatedAt,
    card: typeof cardId === 'string' ? await cardLabel(db, cardId) : undefined,
    receiptNumber: chargeId,
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
  const transactions = [];
  for (let offset = 0; ; offset += filter.limit) {
    const page = await listTransactions(db, accountId, { ...filter, offset });
    transactions.push(...page.transactions.filter((t) => t.status === 'COMPLETED'));
    if (offset + filter.limit >= page.totalCount) break;
  }
  const pdf = await renderStatement({
    productName,
    accountName: (await accountName(db, accountId)) ?? '',
    accountId,
    dateStart,
    dateEnd,
    opening: await balanceBefore(db, accountId, filter.from ?? new Date()),
    closing: await balanceBefore(db, accountId, filter.until ?? new Date()),
    transactions,
  });
  return asFile(`statement-${dateStart}-${dateEnd}.pdf`, pdf);
}
