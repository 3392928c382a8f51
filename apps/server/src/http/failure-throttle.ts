import { AppError, IdentityErrors } from '@ebs/contract';
import type { FailureRule, RateLimiter } from './rate-limit.ts';

/** Wrong proofs from one address for one subject: a few free, then waits from 30 s up to 15 minutes. */
export const PER_ADDRESS: FailureRule = {
  free: 5,
  firstWaitSeconds: 30,
  maxWaitSeconds: 15 * 60,
  windowSeconds: 60 * 60,
};

/** Wrong proofs for one subject from every address: more free, remembered for a day. */
export const PER_SUBJECT: FailureRule = {
  free: 20,
  firstWaitSeconds: 30,
  maxWaitSeconds: 15 * 60,
  windowSeconds: 24 * 60 * 60,
};

/**
 * Slows down guessing of one subject's secret (an e-mail's password or codes, a user's second
 * factor) without letting anyone lock the owner out. Only wrong proofs count, per subject and
 * address and per subject; a right proof forgets its address's failures. An address with no
 * failures of its own for the subject is never held back, so other addresses' failures cannot keep
 * the owner out; an address that has failed waits for the longer of its own and the subject's
 * wait, so guessing from many addresses gains one try per fresh address once the subject's failures
 * pile up. A wait answers 429 `LimitExceededException` with Retry-After.
 */
export class FailureThrottle {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly name: string,
    private readonly perAddress: FailureRule = PER_ADDRESS,
    private readonly perSubject: FailureRule = PER_SUBJECT,
  ) {}

  /** Runs one proof (which throws when wrong) for `subject` from `ip`, after any wait it owes. */
  async attempt<T>(subject: string, ip: string, proof: () => Promise<T>): Promise<T> {
    await this.check(subject, ip);
    let result: T;
    try {
      result = await proof();
    } catch (error) {
      await this.limiter.fail(this.pairKey(subject, ip), this.perAddress);
      await this.limiter.fail(this.subjectKey(subject), this.perSubject);
      throw error;
    }
    await this.limiter.forget(this.pairKey(subject, ip));
    return result;
  }

  private async check(subject: string, ip: string): Promise<void> {
    const own = await this.limiter.failures(this.pairKey(subject, ip));
    if (own.count === 0) return;
    const all = await this.limiter.failures(this.subjectKey(subject));
    const wait = Math.max(own.retryAfterSeconds, all.retryAfterSeconds);
    if (wait > 0) {
      throw new AppError(IdentityErrors.limitExceeded.error, IdentityErrors.limitExceeded.message, {
        'retry-after': String(wait),
      });
    }
  }

  private pairKey(subject: string, ip: string) {
    return `fail:${this.name}:${subject}:${ip}`;
  }

  private subjectKey(subject: string) {
    return `fail:${this.name}:${subject}`;
  }
}
