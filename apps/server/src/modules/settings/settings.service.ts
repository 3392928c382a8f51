// What other modules use of this module's store, and only that: they never import the store.
export { findSetting, saveSetting } from './settings.store.ts';
