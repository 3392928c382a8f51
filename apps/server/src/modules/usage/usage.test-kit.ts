// Seeds and reads for other modules' tests: the way into this module's tables from outside it.
export { addUsage, listUsage } from './usage.store.ts';
