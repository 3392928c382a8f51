// What other modules read and write of the accounts' rows (locks, the card provider's customer,
// owners, membership, auto pay, the spending cap), and only that: they never import the stores.
export { findCustomerId, recordCustomerId } from './account-customers.store.ts';
export { lockAccountRow } from './account-locks.store.ts';
export {
  type AccountOwner,
  findAccountOwner,
  listAccountsWithOwners,
  type OperatorAccountRow,
} from './account-owners.store.ts';
export {
  type AutoPayCandidate,
  type AutoPaySettings,
  type AutoPaySettingsChange,
  backOffAutoPay,
  claimAutoPayCrossing,
  deferAutoPay,
  endAutoPayCrossing,
  findAutoPaySettings,
  listAutoPayCandidates,
  rearmAutoPay,
  updateAutoPaySettings,
} from './auto-pay.store.ts';
export { findMemberRole } from './membership.store.ts';
export { memberAccountIsDraftOf, memberRoleOf } from './membership.ts';
export { findSpendingCap, listSpendingCaps, spendingCapsOf, updateSpendingCap } from './spending-cap.store.ts';
