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
