// The ambassador module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export { ambassadorRoutes } from './ambassador.routes.ts';
export {
  adjustDepositReward,
  findAmbassador,
  grantAmbassador,
  referralCodeExists,
  rewardDeposits,
} from './ambassador.service.ts';
