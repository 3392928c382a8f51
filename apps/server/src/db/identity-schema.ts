import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.ts';

/** Two-factor sign-in, its challenges, and third-party sign-in (the identity module's own tables). */

export interface TwoFactorSecretsTable {
  user_id: string;
  /** The authenticator secret (base32), sealed with the data key. */
  secret_sealed: string;
  confirmed_at: NullableTimestamp;
  /** bigint travels as text: the newest 30-second step whose code was accepted. */
  last_used_step: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  created_at: Timestamp;
}

export interface TwoFactorRecoveryCodesTable {
  id: Generated<string>;
  user_id: string;
  code_hash: string;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface SignInChallengesTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

/** A user's sign-in identity at a third-party OpenID provider: the issuer and its subject name one person. */
export interface UserIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: string;
  /** The verified e-mail the provider gave at the last sign-in (for support; the user's own e-mail is users.email). */
  email: string;
  created_at: Timestamp;
  last_used_at: Timestamp;
}

/** A third-party sign-in under way: what the callback must check, found by the hash of the browser's cookie. */
export interface ThirdPartySignInsTable {
  flow_hash: string;
  provider: string;
  state: string;
  nonce: string;
  code_verifier: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}
