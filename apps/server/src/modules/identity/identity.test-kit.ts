// Seeds and reads for other modules' tests: the way into this module's tables from outside it.
export { insertSession, insertUser } from './identity.store.ts';
export * as twoFactorStore from './two-factor.store.ts';
