import { type Static, Type } from '@sinclair/typebox';
import { IdentityErrors, Messages } from './messages.ts';

/**
 * Third-party sign-in (OpenID Connect) has two provider slots (spec B §2): the first always, the
 * second only outside prod. Each slot's button label is a configurable provider name.
 */
export const THIRD_PARTY_SLOTS = ['first', 'second'] as const;
export type ThirdPartySlot = (typeof THIRD_PARTY_SLOTS)[number];

/** The names the buttons carry unless the operator configures others. */
export const THIRD_PARTY_DEFAULT_NAMES: Record<ThirdPartySlot, string> = { first: 'Google', second: 'GitLab' };

/** The scopes every third-party sign-in asks for (spec A §9). */
export const THIRD_PARTY_SCOPES = 'openid email phone profile';

export const ThirdPartySlotSchema = Type.Union(
  /* @__PURE__ */ THIRD_PARTY_SLOTS.map((slot) => Type.Literal(slot)),
  { description: 'the provider slot: first, or second (outside prod only)' },
);
export const ThirdPartyParams = Type.Object({ provider: ThirdPartySlotSchema });

/**
 * What a provider sends back to the callback (OpenID Connect Core §3.1.2.5 and §3.1.2.6, RFC 9207).
 * Providers may add parameters of their own (session_state, scope, ...): they are allowed and ignored.
 */
export const ThirdPartyCallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 4096 })),
  state: Type.Optional(Type.String({ maxLength: 512 })),
  iss: Type.Optional(Type.String({ maxLength: 2048 })),
  error: Type.Optional(Type.String({ maxLength: 256 })),
  error_description: Type.Optional(Type.String({ maxLength: 2048 })),
});

/** A slot as the public configuration tells the web app: its button label and whether it works. */
export const ThirdPartyProvider = Type.Object({
  id: ThirdPartySlotSchema,
  name: Type.String(),
  configured: Type.Boolean(),
});

export type ThirdPartyCallbackQuery = Static<typeof ThirdPartyCallbackQuery>;
export type ThirdPartyProvider = Static<typeof ThirdPartyProvider>;

/**
 * Why a third-party sign-in came back to /login: the callback redirects to `/login?error=<code>`
 * with one of these codes, never with free text, so a crafted link cannot put words on the page.
 */
export const ThirdPartyErrorMessages = {
  access_denied: Messages.thirdPartyDenied,
  invalid_state: Messages.thirdPartyStateInvalid,
  email_not_verified: Messages.thirdPartyEmailNotVerified,
  provider_unavailable: Messages.thirdPartyUnavailable,
  not_configured: Messages.providerNotConfigured,
  limit_exceeded: IdentityErrors.limitExceeded.message,
  failed: Messages.thirdPartyFailed,
} as const;
export type ThirdPartyErrorCode = keyof typeof ThirdPartyErrorMessages;

/** The query parameter of /login that carries a third-party sign-in error code. */
export const THIRD_PARTY_ERROR_PARAM = 'error';

/** The web route a successful third-party sign-in lands on: it welcomes the user and goes on to /accounts. */
export const THIRD_PARTY_LANDING_PATH = '/third-party-sign-in';

/**
 * A third-party sign-in of a user with two-factor sign-in on ends at
 * `/login#mfa=<challenge session>&expiresIn=<seconds>&email=<masked e-mail>`, where the Login page's
 * second step asks for the code. A fragment never reaches a server, a log or a Referer header, and
 * the page removes it from the address at once. The e-mail is masked ("a***@e***.com") and read
 * only in that shape, so the address carries almost no personal data and a crafted link cannot put
 * words on the page.
 */
export const THIRD_PARTY_MFA_PARAM = 'mfa';

export interface ThirdPartyMfaStep {
  /** The challenge's single-use `session`, as POST /auth/sign-in/mfa takes it. */
  session: string;
  expiresIn: number;
  /** The user's e-mail, masked. */
  email: string;
}

const CHALLENGE_SESSION_SHAPE = /^[\w-]{20,200}$/;
const MASKED_EMAIL_SHAPE = /^[^\s@*]?\*{3}@[^\s@*]?\*{3}(\.[\p{L}\p{N}-]{1,63})?$/u;

/** The fragment (with its `#`) that sends a third-party sign-in to the Login page's second step. */
export const thirdPartyMfaFragment = (step: ThirdPartyMfaStep) =>
  `#${new URLSearchParams({
    [THIRD_PARTY_MFA_PARAM]: step.session,
    expiresIn: String(step.expiresIn),
    email: step.email,
  })}`;

/** The second step a fragment carries; null when it carries none, or not in the expected shape. */
export function readThirdPartyMfaFragment(hash: string): ThirdPartyMfaStep | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const session = params.get(THIRD_PARTY_MFA_PARAM) ?? '';
  const expiresIn = Number(params.get('expiresIn'));
  const email = params.get('email') ?? '';
  if (!CHALLENGE_SESSION_SHAPE.test(session) || !MASKED_EMAIL_SHAPE.test(email)) return null;
  if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > 3600) return null;
  return { session, expiresIn, email };
}
