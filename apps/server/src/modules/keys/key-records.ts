// What other modules read of the keys' table, and only that: the SQL stays in this module's store,
// which they never import. A file of its own (not keys.service.ts) so that reading a key's name
// does not load the key service and the accounts it locks.
export { findActiveKeyDayLimits, findKeyNames } from './keys.store.ts';
