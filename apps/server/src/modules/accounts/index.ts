// The accounts module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export { acceptInvitations } from './account-access.service.ts';
export { accountCreators } from './account-creators.ts';
export type { AutoPayCandidate } from './account-rows.service.ts';
export {
  backOffAutoPay,
  claimAutoPayCrossing,
  deferAutoPay,
  endAutoPayCrossing,
  findAccountOwner,
  findAutoPaySettings,
  findCustomerId,
  findMemberRole,
  findSpendingCap,
  listAccountsWithOwners,
  listAutoPayCandidates,
  listSpendingCaps,
  lockAccountRow,
  memberAccountIsDraftOf,
  memberRoleOf,
  rearmAutoPay,
  recordCustomerId,
  spendingCapsOf,
  updateAutoPaySettings,
  updateSpendingCap,
} from './account-rows.service.ts';
export { accountSettingsRoutes } from './account-settings.routes.ts';
export { signingSecretsInForce } from './account-settings.service.ts';
export { accountRoutes } from './accounts.routes.ts';
export { AccountsService, accountExists, accountName, isFeatureEnabled, setFeature } from './accounts.service.ts';
export { gatewayAccounts, refreshBillingStatus } from './billing-status.ts';
export { cleanUpDrafts } from './draft-cleanup.job.ts';
