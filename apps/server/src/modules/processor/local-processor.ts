import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ErrorCode } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import type { CardProvider, ChargeResult, ProviderCard, SetupIntent } from '../cards/index.ts';
import { CardError, type CardInput, checkCard, ProcessorMessages } from './card-number.ts';
import * as store from './processor.store.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const newId = (prefix: string) =>
  `${prefix}_${Array.from(randomBytes(24), (b) => ALPHABET[b % ALPHABET.length]).join('')}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** What the browser sees of a setup intent after confirming it. */
export interface SetupIntentState {
  id: string;
  status: 'succeeded' | 'requires_action';
  payment_method: string;
  next_action?: { type: 'challenge' };
}

/** A refusal of the local processor: `code` is the card's (`card_error`) or the request's. */
export class ProcessorError extends Error {
  constructor(
    message: string,
    readonly code: Extract<ErrorCode, 'card_error' | 'Bad Request' | 'Not Found'>,
  ) {
    super(message);
  }
}

/**
 * The embedded default's card processor. The browser confirms cards with it directly (the
 * console never sees a card number); the console calls it through the CardProvider interface.
 * It keeps brand, last four, expiry and a token: nothing from which a number could be rebuilt.
 */
export class LocalCardProcessor implements CardProvider {
  readonly name = 'local';

  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
  ) {}

  async createCustomer(): Promise<string> {
    const customer = newId('cus');
    await store.insertCustomer(this.db, customer);
    return customer;
  }

  async createSetupIntent(accountId: string, customerId: string): Promise<SetupIntent> {
    const id = newId('seti');
    const clientSecret = `${id}_secret_${newId('s').slice(2)}`;
    await store.insertSetupIntent(this.db, {
      id,
      clientSecretHash: sha256(clientSecret).toString('hex'),
      customerId,
      accountId,
    });
    return { client_secret: clientSecret, customerId, setupIntentId: id, accountId };
  }

  /** Browser side: confirm a setup intent with a card as typed. */
  async confirmSetupIntent(id: string, clientSecret: string, card: CardInput): Promise<SetupIntentState> {
    const intent = await this.intentFor(id, clientSecret);
    if (intent.status !== 'REQUIRES_PAYMENT_METHOD' && intent.status !== 'FAILED') {
      throw new ProcessorError('This setup intent has already been confirmed.', 'Bad Request');
    }
    let checked: ReturnType<typeof checkCard>;
    try {
      checked = checkCard(card);
    } catch (error) {
      if (error instanceof CardError) throw new ProcessorError(error.message, 'card_error');
      throw error;
    }
    if (checked.behaviour === 'DECLINE') {
      await store.updateSetupIntent(this.db, id, ['REQUIRES_PAYMENT_METHOD', 'FAILED'], {
        status: 'FAILED',
        lastError: ProcessorMessages.declined,
      });
      throw new ProcessorError(ProcessorMessages.declined, 'card_error');
    }
    const paymentMethod = newId('pm');
    await store.insertPaymentMethod(this.db, paymentMethod, checked);
    if (checked.behaviour === 'CHALLENGE') {
      await store.updateSetupIntent(this.db, id, ['REQUIRES_PAYMENT_METHOD', 'FAILED'], {
        status: 'REQUIRES_ACTION',
        paymentMethodId: paymentMethod,
      });
      return { id, status: 'requires_action', payment_method: paymentMethod, next_action: { type: 'challenge' } };
    }
    await this.succeed(id, intent.customer_id, paymentMethod, ['REQUIRES_PAYMENT_METHOD', 'FAILED']);
    return { id, status: 'succeeded', payment_method: paymentMethod };
  }

  /** Browser side: the card holder's answer to the confirmation challenge. */
  async completeChallenge(id: string, clientSecret: string, approve: boolean): Promise<SetupIntentState> {
    const intent = await this.intentFor(id, clientSecret);
    if (intent.status !== 'REQUIRES_ACTION' || !intent.payment_method_id) {
      throw new ProcessorError('This setup intent is not waiting for a confirmation.', 'Bad Request');
    }
    if (!approve) {
      await store.updateSetupIntent(this.db, id, ['REQUIRES_ACTION'], {
        status: 'FAILED',
        lastError: ProcessorMessages.authenticationFailed,
      });
      throw new ProcessorError(ProcessorMessages.authenticationFailed, 'card_error');
    }
    await this.succeed(id, intent.customer_id, intent.payment_method_id, ['REQUIRES_ACTION']);
    return { id, status: 'succeeded', payment_method: intent.payment_method_id };
  }

  async findCard(customerId: string, token: string): Promise<ProviderCard | undefined> {
    const pm = await store.findCustomerPaymentMethod(this.db, customerId, token);
    return pm && { brand: pm.brand, last4: pm.last4, expMonth: pm.exp_month, expYear: pm.exp_year };
  }

  async updateExpiry(customerId: string, token: string, expMonth: number, expYear: number): Promise<void> {
    if (!(await store.findCustomerPaymentMethod(this.db, customerId, token))) {
      throw new ProcessorError('No such payment method.', 'Not Found');
    }
    await store.setPaymentMethodExpiry(this.db, token, expMonth, expYear);
  }

  async detach(customerId: string, token: string): Promise<void> {
    if (await store.findCustomerPaymentMethod(this.db, customerId, token))
      await store.detachPaymentMethod(this.db, token);
  }

  async charge(input: {
    customerId: string;
    token: string;
    amount: string;
    idempotencyKey: string;
    description: string;
  }): Promise<ChargeResult> {
    const earlier = await store.findChargeByKey(this.db, input.idempotencyKey);
    if (earlier) {
      if (Number(earlier.amount) !== Number(input.amount) || earlier.payment_method_id !== input.token) {
        throw new ProcessorError(
          'An idempotency key can only be used again with the same amount and card.',
          'Bad Request',
        );
      }
      return this.result(earlier);
    }
    const pm = await store.findCustomerPaymentMethod(this.db, input.customerId, input.token);
    if (!pm) throw new ProcessorError('No such payment method.', 'Not Found');
    const failure =
      pm.behaviour === 'DECLINE'
        ? ProcessorMessages.declined
        : pm.behaviour === 'INSUFFICIENT_FUNDS'
          ? ProcessorMessages.insufficientFunds
          : null;
    await store.insertCharge(this.db, {
      id: newId('ch'),
      customer_id: input.customerId,
      payment_method_id: pm.id,
      amount: input.amount,
      currency: 'usd',
      description: input.description,
      idempotency_key: input.idempotencyKey,
      status: failure ? 'FAILED' : 'SUCCEEDED',
      failure_message: failure,
    });
    // Whoever inserted first decides: a concurrent twin reads the same charge back.
    const charge = await store.findChargeByKey(this.db, input.idempotencyKey);
    if (!charge) throw new Error('charge vanished after insert');
    return this.result(charge);
  }

  async findCharge(idempotencyKey: string): Promise<ChargeResult | undefined> {
    const charge = await store.findChargeByKey(this.db, idempotencyKey);
    return charge && this.result(charge);
  }

  receiptUrl(chargeId: string): string {
    return `${this.publicUrl}/processor/v1/receipts/${chargeId}`;
  }

  private result(charge: { id: string; status: string; failure_message: string | null }): ChargeResult {
    return charge.status === 'SUCCEEDED'
      ? { status: 'succeeded', chargeId: charge.id, receiptUrl: this.receiptUrl(charge.id) }
      : { status: 'failed', chargeId: charge.id, message: charge.failure_message ?? ProcessorMessages.declined };
  }

  private async intentFor(id: string, clientSecret: string) {
    const intent = await store.findSetupIntent(this.db, id);
    const expected = intent ? Buffer.from(intent.client_secret_hash, 'hex') : Buffer.alloc(32);
    if (!intent || !timingSafeEqual(expected, sha256(clientSecret))) {
      throw new ProcessorError('No such setup intent.', 'Not Found');
    }
    return intent;
  }

  private async succeed(
    id: string,
    customerId: string,
    paymentMethod: string,
    from: Array<'REQUIRES_PAYMENT_METHOD' | 'REQUIRES_ACTION' | 'FAILED'>,
  ): Promise<void> {
    if (!(await store.updateSetupIntent(this.db, id, from, { status: 'SUCCEEDED', paymentMethodId: paymentMethod }))) {
      throw new ProcessorError('This setup intent has already been confirmed.', 'Bad Request');
    }
    await store.attachPaymentMethod(this.db, paymentMethod, customerId);
  }
}
