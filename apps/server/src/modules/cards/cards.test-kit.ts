// Seeds and reads for other modules' tests: the way into this module's tables from outside it.
export { findCard } from './cards.store.ts';
