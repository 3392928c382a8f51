// The identity module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export { identityRoutes } from './identity.routes.ts';
export type { IdentityProvider } from './identity.service.ts';
export { IdentityService } from './identity.service.ts';
export type { UserName } from './identity.store.ts';
export {
  findConfirmedEmail,
  findConfirmedUserIdByEmail,
  findConfirmedUsersReferredBy,
  findUserByEmail,
  findUserEmail,
  findUserIdByEmail,
  findUserNames,
  findUserProfile,
  lockUser,
  markWelcomeCreditRedeemed,
  userReferralCodes,
} from './identity.store.ts';
export { callerChecks } from './request-callers.ts';
export { publicProviders } from './third-party/third-party.providers.ts';
export { thirdPartyRoutes } from './third-party/third-party.routes.ts';
export { ThirdPartySignIn } from './third-party/third-party.service.ts';
export { IdTokens } from './tokens.ts';
export { twoFactorRoutes } from './two-factor.routes.ts';
export { isMfaEnabled, TwoFactorService, turnOffTwoFactor } from './two-factor.service.ts';
