// The ledger module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export { availableCreditOf, availableCredits, balanceOf, pendingOf } from './available-credit.ts';
export type { ClaimedDeposit, ReversalRow, ReversalType } from './ledger.service.ts';
export {
  appendTransactions,
  balanceBefore,
  claimDeposit,
  findCompletedTransaction,
  findLedgerRow,
  insertTransaction,
  ledgerTotals,
  listTransactions,
  lockCardDeposit,
  parseAmount,
  reversalsOf,
  settleTransaction,
  stalePendingDeposits,
  transactionFilter,
  transactionPages,
} from './ledger.service.ts';
export { completedCardDeposits, hasLedgerRows } from './ledger-rows.ts';
export { centsToMicros, fromMicros, minMicros, toMicros } from './usd-micros.ts';
