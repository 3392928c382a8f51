// Seeds and reads for other modules' tests: the way into this module's tables from outside it.

export type { TransactionFilter } from './ledger.store.ts';
export {
  claimDeposit,
  insertTransaction,
  listTransactions,
  settleTransaction,
} from './ledger.store.ts';
