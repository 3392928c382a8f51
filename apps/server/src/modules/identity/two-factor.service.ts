import { identityError, isRecoveryCode, MFA_CHALLENGE_NAME, type MfaChallenge, type MfaSetup } from '@ebs/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { FailureThrottle } from '../../http/failure-throttle.ts';
import { enforce, type RateLimiter } from '../../http/rate-limit.ts';
import { seal, unseal } from '../../secrets.ts';
import { hashOpaqueToken, newOpaqueToken } from './tokens.ts';
import { hashRecoveryCode, matchingStep, newRecoveryCodes, newTotpSecret, totpUri } from './totp.ts';
import * as store from './two-factor.store.ts';

/** How long the second step of a sign-in waits for its code. */
export const CHALLENGE_TTL_SECONDS = 5 * 60;
/** A challenge takes this many codes; then the user signs in again (and meets the sign-in limits). */
export const MAX_CHALLENGE_ATTEMPTS = 5;
export const RECOVERY_CODE_COUNT = 10;

/** Codes offered per client address, right or wrong; wrong ones per user are the throttle's. */
const CODES_PER_IP = { limit: 100, windowSeconds: 15 * 60 } as const;

/**
 * Two-factor sign-in with an authenticator app (TOTP): turning it on and off, and the second step
 * of sign-in. The secret is sealed with the data key and leaves the server only in the setup answer.
 */
export class TwoFactorService {
  /** Wrong codes per user, whatever challenge or setting they are for. */
  private readonly codes: FailureThrottle;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly dataKey: Buffer,
    private readonly hmacSecret: string,
    private readonly limiter: RateLimiter,
    private readonly now: () => number = Date.now,
  ) {
    this.codes = new FailureThrottle(limiter, 'mfa');
  }

  /** A new secret for the user's app; it replaces an unconfirmed one and counts only once confirmed. */
  async setup(userId: string, email: string): Promise<MfaSetup> {
    if (await store.isMfaEnabled(this.db, userId)) throw identityError('mfaAlreadyOn');
    const secret = newTotpSecret();
    if (!(await store.saveUnconfirmedSecret(this.db, userId, seal(this.dataKey, secret)))) {
      throw identityError('mfaAlreadyOn');
    }
    return { secret, uri: totpUri(secret, this.config.PRODUCT_NAME, email) };
  }

  /** A current code from the app turns it on; the recovery codes are answered this once. */
  async enable(userId: string, code: string, ip: string): Promise<string[]> {
    await enforce(this.limiter, [[`mfa:ip:${ip}`, CODES_PER_IP]]);
    const row = await store.findSecret(this.db, userId);
    if (row?.confirmed) throw identityError('mfaAlreadyOn');
    if (!row) throw identityError('mfaSetupFirst');
    const step = await this.codes.attempt(userId, ip, async () => {
      const matched = matchingStep(unseal(this.dataKey, row.secretSealed), code, this.now());
      if (matched === null) throw identityError('mfaCodeMismatch');
      return matched;
    });
    const codes = newRecoveryCodes(RECOVERY_CODE_COUNT);
    await this.db.transaction().execute(async (trx) => {
      if (!(await store.confirmSecret(trx, userId, step))) throw identityError('mfaAlreadyOn');
      await store.setMfaEnabled(trx, userId, true);
      await store.replaceRecoveryCodes(
        trx,
        userId,
        codes.map((c) => hashRecoveryCode(this.hmacSecret, userId, c)),
      );
    });
    return codes;
  }

  /** A current code or a recovery code turns it off; the secret and the recovery codes are forgotten. */
  async disable(userId: string, code: string, ip: string): Promise<void> {
    await enforce(this.limiter, [[`mfa:ip:${ip}`, CODES_PER_IP]]);
    if (!(await store.isMfaEnabled(this.db, userId))) throw identityError('mfaNotOn');
    await this.codes.attempt(userId, ip, () => this.prove(userId, code));
    await store.turnOffTwoFactor(this.db, userId);
  }

  /** Turns two-factor sign-in off once a password reset proved the e-mail; whether it was on. */
  async turnOffAfterReset(userId: string): Promise<boolean> {
    if (!(await store.isMfaEnabled(this.db, userId))) return false;
    await store.turnOffTwoFactor(this.db, userId);
    return true;
  }

  /** The second step of a sign-in whose password was right; null when two-factor sign-in is off. */
  async challengeFor(userId: string): Promise<MfaChallenge | null> {
    if (!(await store.isMfaEnabled(this.db, userId))) return null;
    const session = newOpaqueToken();
    await store.insertChallenge(this.db, userId, hashOpaqueToken(session), CHALLENGE_TTL_SECONDS);
    return { challengeName: MFA_CHALLENGE_NAME, session, expiresIn: CHALLENGE_TTL_SECONDS };
  }

  /** Answers a challenge with a code; the id of the user whose sign-in it finishes. */
  async passChallenge(session: string, code: string, ip: string): Promise<string> {
    await enforce(this.limiter, [[`mfa:ip:${ip}`, CODES_PER_IP]]);
    const challenge = await store.findChallenge(this.db, hashOpaqueToken(session));
    if (!challenge || challenge.spent) throw identityError('mfaChallengeExpired');
    // Every code offered uses up one of the challenge's attempts, a held-back one too.
    if (!(await store.claimAttempt(this.db, challenge.id, MAX_CHALLENGE_ATTEMPTS))) {
      throw identityError('mfaTooManyAttempts');
    }
    await this.codes.attempt(challenge.userId, ip, () => this.prove(challenge.userId, code));
    if (!(await store.useChallenge(this.db, challenge.id))) throw identityError('mfaChallengeExpired');
    return challenge.userId;
  }

  /** Accepts a current app code once (a code's step cannot be used again) or an unused recovery code. */
  private async prove(userId: string, code: string): Promise<void> {
    if (isRecoveryCode(code)) {
      const hash = hashRecoveryCode(this.hmacSecret, userId, code);
      if (!(await store.useRecoveryCode(this.db, userId, hash))) throw identityError('mfaCodeMismatch');
      return;
    }
    const row = await store.findSecret(this.db, userId);
    const step = row?.confirmed ? matchingStep(unseal(this.dataKey, row.secretSealed), code, this.now()) : null;
    if (step === null) throw identityError('mfaCodeMismatch');
    if (!(await store.useStep(this.db, userId, step))) throw identityError('mfaCodeUsed');
  }
}

// What other modules use of this module's store, and only that: they never import the store.
export { isMfaEnabled, turnOffTwoFactor } from './two-factor.store.ts';
