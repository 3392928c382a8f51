import type {
  AuthSession,
  CodeDelivery,
  ConfirmResult,
  MfaSetup,
  MfaSignInBody,
  MfaStatus,
  ReferralCodeResult,
  SignInBody,
  SignInResult,
  SignUpBody,
  SignUpResult,
} from '@ebs/contract';
import { api } from '../../api/client';

type Done = { result: 'SUCCESS' };

export const identityApi = {
  /** The session, or the second-step challenge when two-factor sign-in is on. */
  signIn: (body: SignInBody) => api.post<SignInResult>('/auth/sign-in', { body }),
  answerMfaChallenge: (body: MfaSignInBody) => api.post<AuthSession>('/auth/sign-in/mfa', { body }),
  setUpMfa: () => api.post<MfaSetup>('/auth/mfa/setup'),
  enableMfa: (code: string) => api.post<MfaStatus>('/auth/mfa/enable', { body: { code } }),
  disableMfa: (code: string) => api.post<MfaStatus>('/auth/mfa/disable', { body: { code } }),
  signUp: (body: SignUpBody) => api.post<SignUpResult>('/auth/sign-up', { body }),
  confirmSignUp: (body: { email: string; code: string }) => api.post<ConfirmResult>('/auth/confirm-sign-up', { body }),
  resendCode: (email: string) => api.post<CodeDelivery>('/auth/resend-code', { body: { email } }),
  forgotPassword: (email: string) => api.post<CodeDelivery>('/auth/forgot-password', { body: { email } }),
  confirmForgotPassword: (body: { email: string; code: string; newPassword: string }) =>
    api.post<Done>('/auth/confirm-forgot-password', { body }),
  changePassword: (body: { oldPassword: string; newPassword: string }) =>
    api.post<Done>('/auth/change-password', { body }),
  checkReferralCode: (referralCode: string) =>
    api.get<ReferralCodeResult>('/api/v1.0/user/checkIsValidCode', { query: { referralCode } }),
};
