import { type Static, Type } from '@sinclair/typebox';
import { CODE_PATTERN, PASSWORD_MAX } from './rules.ts';

const Email = Type.String({ minLength: 1, maxLength: 320 });
const Password = Type.String({ minLength: 1, maxLength: PASSWORD_MAX });
const Code = Type.String({ pattern: CODE_PATTERN });

export const SignUpBody = Type.Object(
  {
    email: Email,
    password: Password,
    /** When sent, must equal password ("Password miss match!" otherwise), as the identity layer checks. */
    passwordConfirm: Type.Optional(Password),
    givenName: Type.String({ minLength: 1, maxLength: 100 }),
    familyName: Type.String({ minLength: 1, maxLength: 100 }),
    referralCode: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
    /** A bot-check answer; the plain sign-up form sends null (docs/decisions.md "Bot check at sign-up"). */
    botCheckToken: Type.Optional(Type.Union([Type.String({ maxLength: 4096 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export const ConfirmSignUpBody = Type.Object({ email: Email, code: Code }, { additionalProperties: false });
export const EmailBody = Type.Object({ email: Email }, { additionalProperties: false });
export const SignInBody = Type.Object({ email: Email, password: Password }, { additionalProperties: false });
export const ConfirmForgotPasswordBody = Type.Object(
  { email: Email, code: Code, newPassword: Password },
  { additionalProperties: false },
);
export const ChangePasswordBody = Type.Object(
  { oldPassword: Password, newPassword: Password },
  { additionalProperties: false },
);

export const AuthUser = Type.Object({
  sub: Type.String(),
  email: Type.String(),
  givenName: Type.String(),
  familyName: Type.String(),
});
export const AuthSession = Type.Object({
  idToken: Type.String(),
  expiresIn: Type.Integer({ description: 'seconds until the identity token expires' }),
  user: AuthUser,
});
export const SignUpResult = Type.Object({
  userSub: Type.String(),
  userConfirmed: Type.Boolean(),
  CodeDeliveryDetails: Type.Object({ Destination: Type.String(), DeliveryMedium: Type.String() }),
});
export const CodeDelivery = Type.Object({
  CodeDeliveryDetails: Type.Object({ Destination: Type.String(), DeliveryMedium: Type.String() }),
});
/** Confirming the e-mail signs the user in: the session comes with the result. */
export const ConfirmResult = Type.Composite([Type.Object({ result: Type.Literal('SUCCESS') }), AuthSession]);
export const Done = Type.Object({ result: Type.Literal('SUCCESS') });

export type SignUpBody = Static<typeof SignUpBody>;
export type SignInBody = Static<typeof SignInBody>;
export type AuthUser = Static<typeof AuthUser>;
export type AuthSession = Static<typeof AuthSession>;
export type SignUpResult = Static<typeof SignUpResult>;
export type CodeDelivery = Static<typeof CodeDelivery>;
export type ConfirmResult = Static<typeof ConfirmResult>;

/**
 * Two-factor sign-in (TOTP; docs/decisions.md "Two-factor sign-in"). With it on, sign-in answers a
 * second-step challenge, as a hosted provider does, and the code (or a recovery code) finishes it.
 */
export const MFA_CHALLENGE_NAME = 'SOFTWARE_TOKEN_MFA';
/** Recovery codes: 10 characters shown as "xxxxx-xxxxx"; the dash and the case are not checked. */
export const RECOVERY_CODE_PATTERN = '^[A-Za-z0-9]{5}[- ]?[A-Za-z0-9]{5}$';
/** A 6-digit authenticator code, or a recovery code. */
export const SECOND_FACTOR_PATTERN = '^(\\d{6}|[A-Za-z0-9]{5}[- ]?[A-Za-z0-9]{5})$';
export const isRecoveryCode = (code: string) => new RegExp(RECOVERY_CODE_PATTERN).test(code);

const SecondFactor = Type.String({ pattern: SECOND_FACTOR_PATTERN });

export const MfaChallenge = Type.Object({
  challengeName: Type.Literal(MFA_CHALLENGE_NAME),
  session: Type.String({ description: 'single-use, names this sign-in in POST /auth/sign-in/mfa' }),
  expiresIn: Type.Integer({ description: 'seconds until the challenge expires' }),
});
/** POST /auth/sign-in: the session, or the second-step challenge when two-factor sign-in is on. */
export const SignInResult = Type.Union([AuthSession, MfaChallenge]);
export const MfaSignInBody = Type.Object(
  { session: Type.String({ minLength: 1, maxLength: 200 }), code: SecondFactor },
  { additionalProperties: false },
);
export const MfaSetup = Type.Object({
  secret: Type.String({ description: 'base32, for typing into an authenticator app' }),
  uri: Type.String({ description: 'otpauth:// URI, shown as a QR code' }),
});
/** Turning two-factor sign-in on takes a current authenticator code. */
export const MfaEnableBody = Type.Object({ code: Code }, { additionalProperties: false });
/** Turning it off takes a current authenticator code or a recovery code. */
export const MfaDisableBody = Type.Object({ code: SecondFactor }, { additionalProperties: false });
export const MfaStatus = Type.Object({
  mfaEnabled: Type.Boolean(),
  recoveryCodes: Type.Optional(Type.Array(Type.String(), { description: 'shown once, when turned on' })),
});

export type MfaChallenge = Static<typeof MfaChallenge>;
export type SignInResult = Static<typeof SignInResult>;
export type MfaSignInBody = Static<typeof MfaSignInBody>;
export type MfaSetup = Static<typeof MfaSetup>;
export type MfaStatus = Static<typeof MfaStatus>;
export const isMfaChallenge = (result: SignInResult): result is MfaChallenge => 'challengeName' in result;
