/**
 * What the console needs from a card payment provider. The local processor implements it in
 * the embedded default; a Stripe implementation of the same interface comes later.
 */
export interface SetupIntent {
  client_secret: string;
  customerId: string;
  setupIntentId: string;
  accountId: string;
}

export interface ProviderCard {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export type ChargeResult =
  | { status: 'succeeded'; chargeId: string; receiptUrl: string }
  | { status: 'failed'; chargeId: string; message: string };

export interface CardProvider {
  /** The name in GET /api/v1.0/payment/{provider}. */
  readonly name: string;
  /** A new customer at the provider, holding the cards of one account. */
  createCustomer(accountId: string): Promise<string>;
  createSetupIntent(accountId: string, customerId: string): Promise<SetupIntent>;
  /** The card behind a token, when the customer holds it; undefined otherwise. */
  findCard(customerId: string, token: string): Promise<ProviderCard | undefined>;
  updateExpiry(customerId: string, token: string, expMonth: number, expYear: number): Promise<void>;
  detach(customerId: string, token: string): Promise<void>;
  /** The charge made under an idempotency key, if any: how a crash is settled afterwards. */
  findCharge(idempotencyKey: string): Promise<ChargeResult | undefined>;
  /** Charges once per idempotency key: a repeat returns the first result. */
  charge(input: {
    customerId: string;
    token: string;
    amount: string;
    idempotencyKey: string;
    description: string;
  }): Promise<ChargeResult>;
}
