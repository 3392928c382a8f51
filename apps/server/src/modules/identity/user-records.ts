// What other modules read and write of the `users` table, and only that: the SQL stays in this
// module's store, which they never import. A file of its own (not identity.service.ts) so that the
// modules identity calls (accounts, ambassador) can use it without an import cycle.
export type { UserName, UserProfile } from './identity.store.ts';
export {
  findConfirmedEmail,
  findConfirmedUserIdByEmail,
  findConfirmedUsersReferredBy,
  findUserEmail,
  findUserIdByEmail,
  findUserNames,
  findUserProfile,
  lockUser,
  markWelcomeCreditRedeemed,
  userReferralCodes,
} from './identity.store.ts';
