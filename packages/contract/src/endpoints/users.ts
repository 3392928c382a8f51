import { type Endpoint, endpoint } from '../endpoint.ts';
import { ReferralCodeQuery, ReferralCodeResult, UserInfo } from '../users.ts';

/** The signed-in user (/api/v1.0/user...). */
export const userEndpoints = {
  /** The signed-in user, with their two-factor state, welcome credit and ambassador record. */
  info: endpoint({ access: 'user', tag: 'users', method: 'GET', path: '/api/v1.0/user', response: UserInfo }),
  /** Public: the sign-up page checks a referral code before the user exists. Limited per IP against guessing. */
  checkReferralCode: endpoint({
    access: 'public',
    tag: 'users',
    method: 'GET',
    path: '/api/v1.0/user/checkIsValidCode',
    query: ReferralCodeQuery,
    response: ReferralCodeResult,
  }),
} satisfies Record<string, Endpoint>;
