import { type Static, Type } from '@sinclair/typebox';

export const Ambassador = Type.Object({
  balance: Type.Number(),
  code: Type.Union([Type.String(), Type.Null()]),
  rewardRate: Type.Number({ description: 'a fraction: 0.1 is 10 %' }),
  linkedUsers: Type.Array(Type.Object({ email: Type.String() })),
});

export const UserInfo = Type.Object({
  id: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  mfaEnabled: Type.Boolean(),
  bonusRedemption: Type.Object({ welcomeCredit: Type.Boolean() }),
  ambassador: Type.Union([Ambassador, Type.Null()]),
});

export const ReferralCodeQuery = Type.Object(
  { referralCode: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export const ReferralCodeResult = Type.Object({ isValidCode: Type.Boolean() });

export type Ambassador = Static<typeof Ambassador>;
export type UserInfo = Static<typeof UserInfo>;
export type ReferralCodeResult = Static<typeof ReferralCodeResult>;
