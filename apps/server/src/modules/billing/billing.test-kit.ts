// Seeds and reads for other modules' tests: the way into this module's tables from outside it.
export { claimDeposit, insertTransaction, refreshBillingStatus } from './ledger.store.ts';
