// Seeds and reads for other modules' tests: the way into this module's tables from outside it.
export { findSealedSigningSecret } from './account-settings.store.ts';
export { findAccountDetails, insertAccount, isFeatureEnabled, setFeature } from './accounts.store.ts';
