import type {
  AuthSession,
  CodeDelivery,
  ConfirmResult,
  ReferralCodeResult,
  SignInBody,
  SignUpBody,
  SignUpResult,
} from '@ebs/contract';
import { api } from '../../api/client';

type Done = { result: 'SUCCESS' };

export const identityApi = {
  signIn: (body: SignInBody) => api.post<AuthSession>('/auth/sign-in', { body }),
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
