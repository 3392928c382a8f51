import { type Endpoint, endpoint } from '../endpoint.ts';
import {
  AuthSession,
  ChangePasswordBody,
  CodeDelivery,
  ConfirmForgotPasswordBody,
  ConfirmResult,
  ConfirmSignUpBody,
  Done,
  EmailBody,
  MfaDisableBody,
  MfaEnableBody,
  MfaSetup,
  MfaSignInBody,
  MfaStatus,
  SignInBody,
  SignInResult,
  SignUpBody,
  SignUpResult,
} from '../identity.ts';
import { ThirdPartyCallbackQuery, ThirdPartyParams } from '../third-party.ts';

const open = { access: 'public', tag: 'identity', method: 'POST' } as const;
const signedIn = { access: 'user', tag: 'identity', method: 'POST' } as const;

/** The identity: sign-up, sign-in, two-factor, third-party sign-in (/auth/...). */
export const identityEndpoints = {
  /** Sets the sign-up cookie that names this sign-up to its confirmation from the same browser. */
  signUp: endpoint({ ...open, path: '/auth/sign-up', body: SignUpBody, response: SignUpResult }),
  /** Confirming the e-mail signs the user in: the session comes with the result, the refresh cookie is set. */
  confirmSignUp: endpoint({ ...open, path: '/auth/confirm-sign-up', body: ConfirmSignUpBody, response: ConfirmResult }),
  /** Mails the sign-up code again. */
  resendCode: endpoint({ ...open, path: '/auth/resend-code', body: EmailBody, response: CodeDelivery }),
  /** The session (and the refresh cookie), or the second-step challenge when two-factor sign-in is on. */
  signIn: endpoint({ ...open, path: '/auth/sign-in', body: SignInBody, response: SignInResult }),
  /** Sign-in's second step: the authenticator or recovery code for the challenge's session. */
  answerMfaChallenge: endpoint({ ...open, path: '/auth/sign-in/mfa', body: MfaSignInBody, response: AuthSession }),
  /** A new identity token from the refresh cookie. */
  refresh: endpoint({ ...open, path: '/auth/refresh', response: AuthSession }),
  /** Public: ends the refresh cookie's session, and the identity token's when one is sent. */
  signOut: endpoint({ ...open, path: '/auth/sign-out', response: Done }),
  /** Mails a code for setting a new password. */
  forgotPassword: endpoint({ ...open, path: '/auth/forgot-password', body: EmailBody, response: CodeDelivery }),
  confirmForgotPassword: endpoint({
    ...open,
    path: '/auth/confirm-forgot-password',
    body: ConfirmForgotPasswordBody,
    response: Done,
  }),
  changePassword: endpoint({ ...signedIn, path: '/auth/change-password', body: ChangePasswordBody, response: Done }),

  /** A new authenticator secret; two-factor sign-in stays off until `enableMfa` confirms a code of it. */
  setupMfa: endpoint({ ...signedIn, path: '/auth/mfa/setup', response: MfaSetup }),
  /** Turns two-factor sign-in on; the answer shows the recovery codes, once. */
  enableMfa: endpoint({ ...signedIn, path: '/auth/mfa/enable', body: MfaEnableBody, response: MfaStatus }),
  disableMfa: endpoint({ ...signedIn, path: '/auth/mfa/disable', body: MfaDisableBody, response: MfaStatus }),

  /** Browser navigation: answers a redirect to the provider (or back to /login with an error code). */
  startThirdParty: endpoint({
    access: 'public',
    tag: 'identity',
    method: 'GET',
    path: '/auth/third-party/:provider/start',
    summary: 'Starts third-party sign-in: redirects the browser to the provider',
    params: ThirdPartyParams,
  }),
  /**
   * Browser navigation: redirects signed in (refresh cookie set), to the Login page's second step,
   * or to /login with an error code.
   */
  thirdPartyCallback: endpoint({
    access: 'public',
    tag: 'identity',
    method: 'GET',
    path: '/auth/third-party/:provider/callback',
    summary: 'Where the provider sends the browser back: signs the user in (or asks for the two-factor code)',
    params: ThirdPartyParams,
    query: ThirdPartyCallbackQuery,
  }),
} satisfies Record<string, Endpoint>;
