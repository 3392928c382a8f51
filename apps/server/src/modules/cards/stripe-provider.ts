import { badRequest, Messages } from '@ebs/contract';
import Stripe from 'stripe';
import type { CardProvider, ChargeResult, ProviderCard, SetupIntent } from './card-provider.ts';
import { asConsoleError, call, isMissing, isStripeError, stripeKey, toCents } from './stripe-client.ts';

/** Metadata the console writes on Stripe's objects: how an account's customer, and a charge, are found again. */
export const STRIPE_METADATA = { account: 'ebs_account_id', idempotencyKey: 'ebs_idempotency_key' } as const;

const PAYMENT_METHOD_ID = /^pm_[A-Za-z0-9_]+$/;

/**
 * Stripe as the console's card provider (CARD_PROVIDER=stripe). The browser confirms setup
 * intents with Stripe Elements (the console never sees a card number); the server keeps the
 * account's customer, reads and updates its cards, and charges them off-session. Every charge
 * carries the deposit's idempotency key twice: as Stripe's Idempotency-Key, so a repeat never
 * charges again, and in the PaymentIntent's metadata, so a charge whose answer was lost (a crash,
 * a cut connection) is found with the search API and settled.
 */
export class StripeCardProvider implements CardProvider {
  readonly name = 'stripe';

  constructor(private readonly stripe: Stripe) {}

  /** Keyed by the account: two first calls that race make one customer, not two. */
  async createCustomer(accountId: string): Promise<string> {
    const customer = await call(() =>
      this.stripe.customers.create(
        { metadata: { [STRIPE_METADATA.account]: accountId } },
        { idempotencyKey: `customer:${accountId}` },
      ),
    );
    return customer.id;
  }

  /** Cards only (they never redirect), saved for charges made later without the card holder. */
  async createSetupIntent(accountId: string, customerId: string): Promise<SetupIntent> {
    const intent = await call(() =>
      this.stripe.setupIntents.create({
        customer: customerId,
        usage: 'off_session',
        allowed_payment_method_types: ['card'],
        metadata: { [STRIPE_METADATA.account]: accountId },
      }),
    );
    if (!intent.client_secret) throw new Error(`Stripe answered setup intent ${intent.id} without a client secret`);
    return { client_secret: intent.client_secret, customerId, setupIntentId: intent.id, accountId };
  }

  /** The card behind a payment method id, only when it is attached to this customer. */
  async findCard(customerId: string, token: string): Promise<ProviderCard | undefined> {
    if (!PAYMENT_METHOD_ID.test(token)) return undefined;
    let method: Stripe.PaymentMethod;
    try {
      method = await this.stripe.paymentMethods.retrieve(token);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw asConsoleError(error);
    }
    const owner = typeof method.customer === 'string' ? method.customer : method.customer?.id;
    if (owner !== customerId || !method.card) return undefined;
    const { brand, last4, exp_month, exp_year } = method.card;
    return { brand, last4, expMonth: exp_month, expYear: exp_year };
  }

  async updateExpiry(customerId: string, token: string, expMonth: number, expYear: number): Promise<void> {
    if (!(await this.findCard(customerId, token))) throw badRequest(Messages.cardUnknownToProvider);
    await call(() => this.stripe.paymentMethods.update(token, { card: { exp_month: expMonth, exp_year: expYear } }));
  }

  /** Forgets the card at Stripe; one already gone, or another customer's, is left as it is. */
  async detach(customerId: string, token: string): Promise<void> {
    if (!(await this.findCard(customerId, token))) return;
    try {
      await this.stripe.paymentMethods.detach(token);
    } catch (error) {
      if (!isMissing(error)) throw asConsoleError(error);
    }
  }

  async charge(input: {
    customerId: string;
    token: string;
    amount: string;
    idempotencyKey: string;
    description: string;
  }): Promise<ChargeResult> {
    const key = stripeKey(input.idempotencyKey);
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.create(
        {
          amount: toCents(input.amount),
          currency: 'usd',
          customer: input.customerId,
          payment_method: input.token,
          allowed_payment_method_types: ['card'],
          off_session: true,
          confirm: true,
          description: input.description,
          metadata: { [STRIPE_METADATA.idempotencyKey]: key },
          expand: ['latest_charge'],
        },
        { idempotencyKey: key },
      );
    } catch (error) {
      const refused = refusal(error);
      if (refused) return refused;
      throw asConsoleError(error);
    }
    const result = resultOf(intent);
    // Not settled yet (processing): the deposit stays pending and findCharge settles it later.
    if (!result) throw new Error(`Stripe left payment ${intent.id} ${intent.status}`);
    return result;
  }

  /**
   * The charge made under a key, from the search API. Search lags writes by up to a minute, which
   * is why only deposits pending for longer are reconciled (DepositService.reconcile).
   */
  async findCharge(idempotencyKey: string): Promise<ChargeResult | undefined> {
    const found = await call(() =>
      this.stripe.paymentIntents.search({
        query: `metadata['${STRIPE_METADATA.idempotencyKey}']:'${stripeKey(idempotencyKey)}'`,
        expand: ['data.latest_charge'],
      }),
    );
    // One key makes one PaymentIntent; should there be more, a paid one decides.
    const intent = found.data.find((i) => i.status === 'succeeded') ?? found.data[0];
    return intent && resultOf(intent);
  }
}

/** A settled PaymentIntent as a charge result; undefined while it may still succeed. */
function resultOf(intent: Stripe.PaymentIntent): ChargeResult | undefined {
  if (intent.status === 'succeeded') {
    const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    return { status: 'succeeded', chargeId: intent.id, receiptUrl: charge?.receipt_url ?? '' };
  }
  // Off-session, no card holder is there to authenticate or to pick another card: these are final.
  if (
    intent.status === 'requires_payment_method' ||
    intent.status === 'requires_action' ||
    intent.status === 'canceled'
  ) {
    const message = intent.last_payment_error?.message ?? 'Your card was declined.';
    return { status: 'failed', chargeId: intent.id, message };
  }
  return undefined;
}

/**
 * A charge Stripe refused outright, with its own message: a decline (402, replayed as it was for
 * a repeat of the key) or a request it would not take (400/404, e.g. a card detached meanwhile),
 * neither of which charged anything. Conflicts (409: the same key still in flight; the SDK retries
 * them), outages and bad keys are not refusals: they throw,
 * and the deposit stays pending until findCharge can tell.
 */
function refusal(error: unknown): ChargeResult | undefined {
  if (!isStripeError(error)) return undefined;
  const declined = error instanceof Stripe.errors.StripeCardError;
  if (!declined && !(error instanceof Stripe.errors.StripeInvalidRequestError)) return undefined;
  return { status: 'failed', chargeId: error.payment_intent?.id ?? error.charge ?? '', message: error.message };
}
