import {
  AppError,
  type AuthSession,
  type CodeDelivery,
  hasControlCharacters,
  identityError,
  isStrongPassword,
  isValidEmail,
  Messages,
  type MfaChallenge,
  normalizeEmail,
  resendWaitMessage,
  type SignUpBody,
  type SignUpResult,
  unauthorized,
} from '@ebs/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { FailureThrottle } from '../../http/failure-throttle.ts';
import { enforce, type RateLimiter } from '../../http/rate-limit.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { acceptInvitations } from '../accounts/index.ts';
import { referralCodeExists } from '../ambassador/index.ts';
import { type CodePurpose, hashCode, maskEmail, newCode, sameHash } from './codes.ts';
import { isCommonPassword } from './common-passwords.ts';
import * as store from './identity.store.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { hashOpaqueToken, type IdTokens, newOpaqueToken } from './tokens.ts';
import type { TwoFactorService } from './two-factor.service.ts';

const MAX_CODE_ATTEMPTS = 5;
/** A refresh token reused within this many seconds (two tabs refreshing at once) is not a theft. */
const REUSE_GRACE_SECONDS = 30;

/** Every attempt from one address, right or wrong; wrong ones per e-mail are the throttles' (below). */
const LIMITS = {
  signInPerIp: { limit: 100, windowSeconds: 15 * 60 },
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
  /** The answer, and the token that names this sign-up to its confirmation (kept by the browser). */
  signUp(input: SignUpBody, ip: string): Promise<{ result: SignUpResult; signUpToken: string }>;
  confirmSignUp(input: { email: string; code: string }, ip: string, signUpToken?: string): Promise<SignedIn>;
  resendCode(input: { email: string }, ip: string): Promise<CodeDelivery>;
  /** The session, or the second-step challenge when the user has two-factor sign-in on. */
  signIn(input: { email: string; password: string }, ip: string): Promise<SignedIn | MfaChallenge>;
  /** Finishes a sign-in that was answered with a challenge, with an authenticator or recovery code. */
  answerMfaChallenge(input: { session: string; code: string }, ip: string): Promise<SignedIn>;
  refresh(refreshToken: string | undefined): Promise<SignedIn>;
  signOut(refreshToken: string | undefined, sessionId: string | undefined): Promise<void>;
  forgotPassword(input: { email: string }, ip: string): Promise<CodeDelivery>;
  confirmForgotPassword(input: { email: string; code: string; newPassword: string }, ip: string): Promise<void>;
  changePassword(
    userId: string,
    sessionId: string,
    input: { oldPassword: string; newPassword: string },
    ip: string,
  ): Promise<void>;
}

/**
 * The built-in identity provider: sign-up with e-mail codes, sign-in, rotating refresh tokens,
 * password reset and change.
 */
export class IdentityService implements IdentityProvider {
  /** Wrong passwords, per e-mail. */
  private readonly passwords: FailureThrottle;
  /** Wrong e-mailed codes (sign-up and reset), per e-mail. */
  private readonly codes: FailureThrottle;
  /** Wrong old passwords on change, per user. */
  private readonly oldPasswords: FailureThrottle;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly hmacSecret: string,
    private readonly tokens: IdTokens,
    private readonly mailer: Mailer,
    private readonly limiter: RateLimiter,
    private readonly twoFactor: TwoFactorService,
  ) {
    this.passwords = new FailureThrottle(limiter, 'signin');
    this.codes = new FailureThrottle(limiter, 'code');
    this.oldPasswords = new FailureThrottle(limiter, 'password-change');
  }

  async signUp(input: SignUpBody, ip: string): Promise<{ result: SignUpResult; signUpToken: string }> {
    const email = this.checkedEmail(input.email);
    if (input.passwordConfirm !== undefined && input.passwordConfirm !== input.password) {
      throw new AppError('InvalidParameterException', Messages.passwordMissMatch);
    }
    this.checkPolicy(input.password);
    if (hasControlCharacters(input.givenName))
      throw new AppError('InvalidParameterException', Messages.firstNameInvalid);
    if (hasControlCharacters(input.familyName))
      throw new AppError('InvalidParameterException', Messages.lastNameInvalid);
    await enforce(this.limiter, [[`mail:ip:${ip}`, LIMITS.mailPerIp]]);
    // Codes are upper case; people type them as they like.
    const referralCode = input.referralCode?.trim().toUpperCase() || null;
    if (referralCode && !(await referralCodeExists(this.db, referralCode))) {
      throw identityError('referralCode');
    }
    // Hashed before the e-mail is looked up, so a repeated sign-up takes as long as a first one.
    const details = {
      givenName: input.givenName.trim(),
      familyName: input.familyName.trim(),
      passwordHash: await hashPassword(input.password),
      referralCode,
    };
    const signUpToken = newOpaqueToken();
    const existing = await store.findUserByEmail(this.db, email);
    if (existing?.confirmedAt) throw identityError('usernameExists');
    if (existing) {
      // Whoever signs up again with a pending e-mail proves nothing: the user keeps the first
      // sign-up's password, names and referral code, and only its code is mailed again (not within
      // the wait, nor past the e-mail's mail limit, neither of which is told), so the answer is the
      // first sign-up's. This sign-up's details wait beside it, for a confirmation from this browser.
      await store.insertSignUpAttempt(this.db, existing.id, hashOpaqueToken(signUpToken), details);
      if ((await this.cooldownLeft(existing.id, 'SIGN_UP')) === 0) {
        const { allowed } = await this.limiter.hit(`mail:email:${email}`, LIMITS.mailPerEmail);
        if (allowed) await this.sendCode(existing.id, email, 'SIGN_UP');
      }
      return { result: this.signUpResult(existing.id, email), signUpToken };
    }
    const userId = await store.insertUser(this.db, { email, ...details }).catch((error: { code?: string }) => {
      if (error.code === '23505') throw identityError('usernameExists');
      throw error;
    });
    await store.insertSignUpAttempt(this.db, userId, hashOpaqueToken(signUpToken), details);
    await this.sendCode(userId, email, 'SIGN_UP');
    return { result: this.signUpResult(userId, email), signUpToken };
  }

  /**
   * Confirming the e-mail signs the user in. The code proves the e-mail, not who chose the kept
   * password: someone may have signed up with this address first. So the sign-up made in the
   * confirming browser (its token) gives the password, names and referral code; without a token,
   * an API client's confirmation, the first sign-up's stay.
   */
  async confirmSignUp(input: { email: string; code: string }, ip: string, signUpToken?: string): Promise<SignedIn> {
    const email = normalizeEmail(input.email);
    await enforce(this.limiter, [[`code:ip:${ip}`, LIMITS.codePerIp]]);
    const user = await store.findUserByEmail(this.db, email);
    if (user?.confirmedAt) throw identityError('alreadyConfirmed');
    const proven = await this.codes.attempt(email, ip, async () => {
      if (!user) throw identityError('codeMismatch');
      await this.consumeCode(user.id, 'SIGN_UP', input.code);
      return user;
    });
    await this.confirmEmail(proven.id, email);
    const chosen = await store.settleSignUpAttempts(
      this.db,
      proven.id,
      signUpToken ? hashOpaqueToken(signUpToken) : undefined,
    );
    return this.startSession(chosen ? ((await store.findUserById(this.db, proven.id)) ?? proven) : proven);
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
    await enforce(this.limiter, [[`signin:ip:${ip}`, LIMITS.signInPerIp]]);
    const user = await this.passwords.attempt(email, ip, async () => {
      const found = await store.findUserByEmail(this.db, email);
      if (!(await verifyPassword(found?.passwordHash, input.password)) || !found) throw identityError('notAuthorized');
      return found;
    });
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
    await enforce(this.limiter, [[`code:ip:${ip}`, LIMITS.codePerIp]]);
    const user = await this.codes.attempt(email, ip, async () => {
      const found = await store.findUserByEmail(this.db, email);
      // As for an account that asked for no code: no code was ever sent to an unknown address.
      if (!found) throw identityError('expiredCode');
      await this.consumeCode(found.id, 'RESET_PASSWORD', input.code);
      return found;
    });
    await store.setPasswordHash(this.db, user.id, await hashPassword(input.newPassword));
    await this.confirmEmail(user.id, email);
    await store.revokeUserSessions(this.db, user.id);
    // A second factor set up by whoever held the old password would keep the owner out after the
    // reset; the mailed code proves the e-mail, and the owner is told in case it was not them.
    if (await this.twoFactor.turnOffAfterReset(user.id)) {
      await this.mailer.send({
        to: email,
        subject: `Two-factor sign-in was turned off for your ${this.config.PRODUCT_NAME} account`,
        text: 'Your password was reset with a code mailed to this address, so two-factor sign-in was turned off. If this was not you, reset your password again and turn two-factor sign-in back on.',
      });
    }
  }

  /** Other sessions are signed out; the caller's own stays. */
  async changePassword(
    userId: string,
    sessionId: string,
    input: { oldPassword: string; newPassword: string },
    ip: string,
  ): Promise<void> {
    const user = await this.oldPasswords.attempt(userId, ip, async () => {
      const found = await store.findUserById(this.db, userId);
      if (!found || !(await verifyPassword(found.passwordHash, input.oldPassword))) {
        throw identityError('wrongOldPassword');
      }
      return found;
    });
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
    if (!isValidEmail(email)) throw new AppError('InvalidParameterException', Messages.invalidEmail);
    return email;
  }

  private checkPolicy(password: string): void {
    if (!isStrongPassword(password)) throw identityError('invalidPassword');
    if (isCommonPassword(password)) throw identityError('commonPassword');
  }

  private signUpResult(userId: string, email: string): SignUpResult {
    return { userSub: userId, userConfirmed: false, CodeDeliveryDetails: this.delivery(email) };
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
      throw new AppError('LimitExceededException', resendWaitMessage(wait), { 'retry-after': String(wait) });
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
    if (row.attempts >= MAX_CODE_ATTEMPTS) throw identityError('limitExceeded');
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
