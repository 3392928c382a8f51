import { type Static, Type } from '@sinclair/typebox';
import { ACCOUNT_NAME_PATTERN } from './rules.ts';

/** spec B §7: POST /api/v1.0/account/updateAccountName. */
export const UpdateAccountNameBody = Type.Object(
  { accountName: Type.String({ maxLength: 1024, description: `must match ${ACCOUNT_NAME_PATTERN}` }) },
  { additionalProperties: false },
);

/** spec B §7: POST /api/v1.0/account/user; the service answers the spec's message for an empty one. */
export const AddUserBody = Type.Object({ email: Type.String({ maxLength: 1024 }) }, { additionalProperties: false });

/**
 * How the person was added: always INVITED, whether the e-mail has a user or not (docs/roles.md),
 * so the answer tells no one which addresses have signed up. ADDED stays for older clients.
 */
export const AddUserResult = Type.Object({
  email: Type.String(),
  status: Type.Union([Type.Literal('ADDED'), Type.Literal('INVITED')]),
});

/** spec B §7: DELETE /api/v1.0/account/{userId}; the id of a member, or of a pending invitation. */
export const RemoveUserParams = Type.Object({ userId: Type.String({ maxLength: 64 }) });

/** spec B §3: the account's Standard Webhooks signing secret (whsec_...). */
export const SigningSecret = Type.Object({ secret: Type.String() });

/**
 * POST /api/v1.0/account/signing-secret/rotate: the new secret, and until when webhooks also carry
 * a signature made with the secret it replaced (null when the account had none before).
 */
export const RotatedSigningSecret = Type.Object({
  secret: Type.String(),
  previousSecretExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export type UpdateAccountNameBody = Static<typeof UpdateAccountNameBody>;
export type AddUserBody = Static<typeof AddUserBody>;
export type AddUserResult = Static<typeof AddUserResult>;
export type SigningSecret = Static<typeof SigningSecret>;
export type RotatedSigningSecret = Static<typeof RotatedSigningSecret>;
