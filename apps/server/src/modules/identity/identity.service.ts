import {
  type AuthSession,
  type CodeDelivery,
  isStrongPassword,
  isValidEmail,
  Messages,
  type MfaChallenge,
  normalizeEmail,
  resendWaitMessage,
  type SignUpBody,
  type SignUpResult,
} from '@ebs/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { AppError, identityError, unauthorized } from '../../http/errors.ts';
import { enforce, type RateLimiter } from '../../http/rate-limit.ts';
import { acceptInvitations } from '../accounts/account-access.store.ts';
import { type CodePurpose, hashCode, maskEmail, newCode, sameHash } from './codes.ts';
import * as store from './identity.store.ts';
import type { Mailer } from './mailer.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { hashOpaqueToken, type IdTokens, newOpaqueToken } from './tokens.ts';
import type { TwoFactorService } from './two-factor.service.ts';

const MAX_CODE_ATTEMPTS = 5;
/** A refresh token reused within this many seconds (two tabs refreshing at once) is not a theft. */
const REUSE_GRACE_SECONDS = 30;

const LIMITS = {
  signInPerEmail: { limit: 10, windowSeconds: 15 * 60 },
  signInPerIp: { limit: 100, windowSeconds: 15 * 60 },
  codePerEmail: { limit: 10, windowSeconds: 15 * 60 },
  codePerIp: { limit: 100, windowSeconds: 15 * 60 },
  mailPerEmail: { limit: 10, windowSeconds: 60 * 60 },
  mailPerIp: { limit: 50, windowSeconds: 60 * 60 },
} as const;

export interface SignedIn {
  session: AuthSession;
  refreshToken: string;
}

/**
 * What the identity routes need from an identity provider. The built-in one below implements
 * it; a hosted provider can be put behind the same interface without touching the routes.
 */
export interface IdentityProvider {
  signUp(input: SignUpBody, ip: string): Promise<SignUpResult>;
  confirmSignUp(input: { email: string; code: string }, ip: string): Promise<SignedIn>;
  resendCode(input: { email: string }, ip: string): Promise<CodeDelivery>;
  /** The session, or the second-step challenge when the user has two-factor sign-in on. */
  signIn(input: { email: string; password: string }, ip: string): Promise<SignedIn | MfaChallenge>;
  /** Finishes a sign-in that was answered with a challenge, with an authenticator or recovery code. */
  answerMfaChallenge(input: { session: string; code: string }, ip: string): Promise<SignedIn>;
  refresh(refreshToken: string | undefined): Promise<SignedIn>;
  signOut(refreshToken: string | undefined, sessionId: string | undefined): Promise<void>;
  forgotPassword(input: { email: string }, ip: string): Promise<CodeDelivery>;
  confirmForgotPassword(input: { email: string; code: string; newPassword: string }, ip: string): Promise<void>;
  changePassword(userId: string, sessionId: string, input: { oldPassword: string; newPassword: string }): Promise<void>;
}

/**
 * The built-in identity provider: sign-up with e-mail codes, sign-in, rotating refresh tokens,
 * password reset and change.
 */
export class IdentityService implements IdentityProvider {
  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly hmacSecret: string,
    private readonly tokens: IdTokens,
    private readonly mailer: Mailer,
    private readonly limiter: RateLimiter,
    private readonly twoFactor: TwoFactorService,
  ) {}

  async signUp(input: SignUpBody, ip: string): Promise<SignUpResult> {
    const email = this.checkedEmail(input.email);
    if (input.passwordConfirm !== undefined && input.passwordConfirm !== input.password) {
      throw new AppError(400, Messages.passwordMissMatch, 'InvalidParameterException');
    }
    this.checkPolicy(input.password);
    await enforce(this.limiter, [[`mail:ip:${ip}`, LIMITS.mailPerIp]]);
    // Codes are upper case; people type them as they like.
    const referralCode = input.referralCode?.trim().toUpperCase() || null;
    if (referralCode && !(await store.referralCodeExists(this.db, referralCode))) {
      throw identityError('referralCode');
    }
    const details = {
      givenName: input.givenName.trim(),
      familyName: input.familyName.trim(),
      passwordHash: await hashPassword(input.password),
      referralCode,
    };
    const existing = await store.findUserByEmail(this.db, email);
    if (existing?.confirmedAt) throw identityError('usernameExists');
    let userId: string;
    if (existing) {
      await this.checkCooldown(existing.id, 'SIGN_UP');
      await store.replaceUnconfirmedUser(this.db, existing.id, details);
      userId = existing.id;
    } else {
      userId = await store.insertUser(this.db, { email, ...details }).catch((error: { code?: string }) => {
        if (error.code === '23505') throw identityError('usernameExists');
        throw error;
      });
    }
    await this.sendCode(userId, email, 'SIGN_UP');
    return { userSub: userId, userConfirmed: false, CodeDeliveryDetails: this.delivery(email) };
  }

  /** Confirming the e-mail signs the user in. */
  async confirmSignUp(input: { email: string; code: string }, ip: string): Promise<SignedIn> {
    const email = normalizeEmail(input.email);
    await enforce(this.limiter, [
      [`code:email:${email}`, LIMITS.codePerEmail],
      [`code:ip:${ip}`, LIMITS.codePerIp],
    ]);
    const user = await store.findUserByEmail(this.db, email);
    if (!user) throw identityError('codeMismatch');
    if (user.confirmedAt) throw identityError('alreadyConfirmed');
    await this.consumeCode(user.id, 'SIGN_UP', input.code);
    await this.confirmEmail(user.id, email);
    return this.startSession(user);
  }

  async resendCode(input: { email: string }, ip: string): Promise<CodeDelivery> {
    const email = this.checkedEmail(input.email);
    await enforce(this.limiter, [
      [`mail:email:${email}`, LIMITS.mailPerEmail],
      [`mail:ip:${ip}`, LIMITS.mailPerIp],
    ]);
    const user = await store.findUserByEmail(this.db, email);
    if (user && !user.confirmedAt) {
      await this.checkCooldown(user.id, 'SIGN_UP');
      await this.sendCode(user.id, email, 'SIGN_UP');
    }
    return { CodeDeliveryDetails: this.delivery(email) };
  }

  async signIn(input: { email: string; password: string }, ip: string): Promise<SignedIn | MfaChallenge> {
    const email = normalizeEmail(input.email);
    await enforce(this.limiter, [
      [`signin:email:${email}`, LIMITS.signInPerEmail],
      [`signin:ip:${ip}`, LIMITS.signInPerIp],
    ]);
    const user = await store.findUserByEmail(this.db, email);
    if (!(await verifyPassword(user?.passwordHash, input.password)) || !user) throw identityError('notAuthorized');
    if (!user.confirmedAt) throw identityError('userNotConfirmed');
    return this.finishSignIn(user);
  }

  /**
   * How every sign-in whose first proof passed ends (a password here, a third-party provider's word
   * in third-party sign-in): the second-step challenge when two-factor sign-in is on, else a session.
   */
  async finishSignIn(user: store.UserRow): Promise<SignedIn | MfaChallenge> {
    return (await this.twoFactor.challengeFor(user.id)) ?? this.startSession(user);
  }

  async answerMfaChallenge(input: { session: string; code: string }, ip: string): Promise<SignedIn> {
    const userId = await this.twoFactor.passChallenge(input.session, input.code, ip);
    const user = await store.findUserById(this.db, userId);
    if (!user) throw identityError('mfaChallengeExpired');
    return this.startSession(user);
  }

  /** Rotates the refresh token; reuse of a rotated token after the grace period revokes the session. */
  async refresh(refreshToken: string | undefined): Promise<SignedIn> {
    if (!refreshToken) throw unauthorized();
    const hash = hashOpaqueToken(refreshToken);
    const row = await store.findRefreshToken(this.db, hash);
    if (!row?.sessionLive) throw unauthorized();
    if (row.usedSecondsAgo !== null && row.usedSecondsAgo > REUSE_GRACE_SECONDS) {
      await store.revokeSession(this.db, row.sessionId);
      throw unauthorized();
    }
    const user = await store.findUserById(this.db, row.userId);
    if (!user) throw unauthorized();
    await store.markRefreshTokenUsed(this.db, hash);
    return this.issue(user, row.sessionId);
  }

  async signOut(refreshToken: string | undefined, sessionId: string | undefined): Promise<void> {
    if (sessionId) await store.revokeSession(this.db, sessionId);
    if (!refreshToken) return;
    const row = await store.findRefreshToken(this.db, hashOpaqueToken(refreshToken));
    if (row) await store.revokeSession(this.db, row.sessionId);
  }

  async forgotPassword(input: { email: string }, ip: string): Promise<CodeDelivery> {
    const email = this.checkedEmail(input.email);
    await enforce(this.limiter, [
      [`mail:email:${email}`, LIMITS.mailPerEmail],
      [`mail:ip:${ip}`, LIMITS.mailPerIp],
    ]);
    // An unknown e-mail gets the same answer, so the form does not tell who has an account. For the
    // same reason a request inside the 60-second wait is not refused: it mails nothing new, and the
    // code already sent stays good.
    const user = await store.findUserByEmail(this.db, email);
    if (user && (await this.cooldownLeft(user.id, 'RESET_PASSWORD')) === 0) {
      await this.sendCode(user.id, email, 'RESET_PASSWORD');
    }
    return { CodeDeliveryDetails: this.delivery(email) };
  }

  /** A reset proves the e-mail too, so it confirms an unconfirmed user; every session is signed out. */
  async confirmForgotPassword(input: { email: string; code: string; newPassword: string }, ip: string): Promise<void> {
    const email = normalizeEmail(input.email);
    this.checkPolicy(input.newPassword);
    await enforce(this.limiter, [
      [`code:email:${email}`, LIMITS.codePerEmail],
      [`code:ip:${ip}`, LIMITS.codePerIp],
    ]);
    const user = await store.findUserByEmail(this.db, email);
    // As for an account that asked for no code: no code was ever sent to an unknown address.
    if (!user) throw identityError('expiredCode');
    await this.consumeCode(user.id, 'RESET_PASSWORD', input.code);
    await store.setPasswordHash(this.db, user.id, await hashPassword(input.newPassword));
    await this.confirmEmail(user.id, email);
    await store.revokeUserSessions(this.db, user.id);
  }

  /** Other sessions are signed out; the caller's own stays. */
  async changePassword(
    userId: string,
    sessionId: string,
    input: { oldPassword: string; newPassword: string },
  ): Promise<void> {
    await enforce(this.limiter, [[`signin:user:${userId}`, LIMITS.signInPerEmail]]);
    const user = await store.findUserById(this.db, userId);
    if (!user || !(await verifyPassword(user.passwordHash, input.oldPassword))) {
      throw identityError('wrongOldPassword');
    }
    this.checkPolicy(input.newPassword);
    await store.setPasswordHash(this.db, user.id, await hashPassword(input.newPassword));
    await store.revokeUserSessions(this.db, user.id, sessionId);
  }

  /** A proven e-mail confirms the user and joins the accounts that invited it (docs/roles.md). */
  private async confirmEmail(userId: string, email: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await store.confirmUser(trx, userId);
      await acceptInvitations(trx, userId, email);
    });
  }

  private checkedEmail(raw: string): string {
    const email = normalizeEmail(raw);
    if (!isValidEmail(email)) throw new AppError(400, Messages.invalidEmail, 'InvalidParameterException');
    return email;
  }

  private checkPolicy(password: string): void {
    if (!isStrongPassword(password)) throw identityError('invalidPassword');
  }

  private delivery(email: string) {
    return { Destination: maskEmail(email), DeliveryMedium: 'EMAIL' };
  }

  /** Seconds until another code of this purpose may be mailed (0: now). */
  private async cooldownLeft(userId: string, purpose: CodePurpose): Promise<number> {
    const last = await store.newestCode(this.db, userId, purpose);
    const cooldown = this.config.RESEND_COOLDOWN_SECONDS;
    return last && !last.used && last.ageSeconds < cooldown ? Math.ceil(cooldown - last.ageSeconds) : 0;
  }

  private async checkCooldown(userId: string, purpose: CodePurpose): Promise<void> {
    const wait = await this.cooldownLeft(userId, purpose);
    if (wait > 0) {
      throw new AppError(429, resendWaitMessage(wait), 'LimitExceededException', { 'retry-after': String(wait) });
    }
  }

  private async sendCode(userId: string, email: string, purpose: CodePurpose): Promise<void> {
    const code = newCode();
    const ttlSeconds =
      purpose === 'SIGN_UP' ? this.config.SIGN_UP_CODE_TTL_SECONDS : this.config.RESET_CODE_TTL_SECONDS;
    await store.insertCode(this.db, {
      userId,
      purpose,
      codeHash: hashCode(this.hmacSecret, userId, purpose, code),
      ttlSeconds,
    });
    const product = this.config.PRODUCT_NAME;
    await this.mailer.send(
      purpose === 'SIGN_UP'
        ? {
            to: email,
            subject: `Your ${product} verification code`,
            text: `Your verification code is ${code}. It expires in ${Math.round(ttlSeconds / 3600)} hours.`,
          }
        : {
            to: email,
            subject: `Reset your ${product} password`,
            text: `Your password reset code is ${code}. It expires in ${Math.round(ttlSeconds / 60)} minutes. If you did not ask for it, ignore this e-mail.`,
          },
    );
  }

  private async consumeCode(userId: string, purpose: CodePurpose, code: string): Promise<void> {
    const row = await store.newestCode(this.db, userId, purpose);
    if (!row || row.used || row.expired) throw identityError('expiredCode');
    if (row.attempts >= MAX_CODE_ATTEMPTS) throw identityError('limitExceeded', 429);
    if (!sameHash(row.codeHash, hashCode(this.hmacSecret, userId, purpose, code))) {
      await store.countFailedAttempt(this.db, row.id);
      throw identityError('codeMismatch');
    }
    if (!(await store.useCode(this.db, row.id))) throw identityError('expiredCode');
  }

  /** A new session for a user whose identity is proven: by password here, or by a third-party provider. */
  async startSession(user: store.UserRow): Promise<SignedIn> {
    const sessionId = await store.insertSession(this.db, user.id, this.config.REFRESH_TOKEN_TTL_SECONDS);
    return this.issue(user, sessionId);
  }

  private async issue(user: store.UserRow, sessionId: string): Promise<SignedIn> {
    const refreshToken = newOpaqueToken();
    await store.insertRefreshToken(this.db, sessionId, hashOpaqueToken(refreshToken));
    const idToken = await this.tokens.sign({
      sub: user.id,
      sid: sessionId,
      email: user.email,
      givenName: user.givenName,
      familyName: user.familyName,
    });
    return {
      refreshToken,
      session: {
        idToken,
        expiresIn: this.tokens.ttlSeconds,
        user: { sub: user.id, email: user.email, givenName: user.givenName, familyName: user.familyName },
      },
    };
  }
}
