// The billing module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export { runAutoPay } from './auto-pay.job.ts';
export { billingRoutes } from './billing.routes.ts';
export { claimWelcomeCredit } from './bonus.service.ts';
export type { CardReversal, ReversalOutcome } from './card-reversal.service.ts';
export { recordCardReversal } from './card-reversal.service.ts';
export { DepositService } from './deposit.service.ts';
export { runBilling } from './usage-billing.job.ts';
