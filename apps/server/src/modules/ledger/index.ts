// The ledger module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export { availableCreditOf, availableCredits, balanceOf, pendingOf } from './available-credit.ts';
export type { ReversalRow, ReversalType } from './card-deposits.store.ts';
export { lockCardDeposit, reversalsOf } from './card-deposits.store.ts';
export { parseAmount, transactionFilter } from './ledger.service.ts';
export type { ClaimedDeposit } from './ledger.store.ts';
export {
  appendTransactions,
  balanceBefore,
  claimDeposit,
  findCompletedTransaction,
  findLedgerRow,
  insertTransaction,
  ledgerTotals,
  listTransactions,
  settleTransaction,
  stalePendingDeposits,
  transactionPages,
} from './ledger.store.ts';
export { completedCardDeposits, hasLedgerRows } from './ledger-rows.ts';
export { centsToMicros, fromMicros, minMicros, toMicros } from './usd-micros.ts';
