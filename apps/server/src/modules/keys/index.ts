// The keys module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export type { KeyRequest } from './key-access.ts';
export { keyRefusal } from './key-access.ts';
export type { EnabledAccounts, KeyState } from './key-cache.ts';
export { KeyCache } from './key-cache.ts';
export { KeyLimits } from './key-limits.ts';
export type { KeyPolicy } from './key-policy.ts';
export { keyRoutes } from './keys.routes.ts';
export { KeysService } from './keys.service.ts';
export { findActiveKeyDayLimits, findKeyNames } from './keys.store.ts';
