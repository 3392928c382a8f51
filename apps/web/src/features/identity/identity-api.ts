import { type EndpointBody, endpoints } from '@ebs/contract';
import { api } from '../../api/client';

const identity = endpoints.identity;

type Body<E extends keyof typeof identity> = EndpointBody<(typeof identity)[E]>;

export const identityApi = {
  /** The session, or the second-step challenge when two-factor sign-in is on. */
  signIn: (body: Body<'signIn'>) => api(identity.signIn, { body }),
  answerMfaChallenge: (body: Body<'answerMfaChallenge'>) => api(identity.answerMfaChallenge, { body }),
  setUpMfa: () => api(identity.setupMfa),
  enableMfa: (code: string) => api(identity.enableMfa, { body: { code } }),
  disableMfa: (code: string) => api(identity.disableMfa, { body: { code } }),
  signUp: (body: Body<'signUp'>) => api(identity.signUp, { body }),
  confirmSignUp: (body: Body<'confirmSignUp'>) => api(identity.confirmSignUp, { body }),
  resendCode: (email: string) => api(identity.resendCode, { body: { email } }),
  forgotPassword: (email: string) => api(identity.forgotPassword, { body: { email } }),
  confirmForgotPassword: (body: Body<'confirmForgotPassword'>) => api(identity.confirmForgotPassword, { body }),
  changePassword: (body: Body<'changePassword'>) => api(identity.changePassword, { body }),
  checkReferralCode: (referralCode: string) => api(endpoints.users.checkReferralCode, { query: { referralCode } }),
};
