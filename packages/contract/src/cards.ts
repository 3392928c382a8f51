import { type Static, Type } from '@sinclair/typebox';

export const CardBrand = Type.String({
  description: 'amex, jcb, mastercard, unionpay, visa (visa is the icon fallback)',
});
export const PaymentCard = Type.Object({
  id: Type.String(),
  defaultPaymentMethod: Type.Boolean(),
  card: Type.Object({
    brand: CardBrand,
    last4: Type.String(),
    exp_month: Type.Integer(),
    exp_year: Type.Integer(),
  }),
});
export const PaymentCardList = Type.Array(PaymentCard);
export type PaymentCard = Static<typeof PaymentCard>;

/** spec A §3: what the card-entry dialog gets from the setup-intent call. */
export const SetupIntent = Type.Object({
  client_secret: Type.String(),
  customerId: Type.String(),
  setupIntentId: Type.String(),
  accountId: Type.String(),
});
/** POST /payment/subscribePayment (no body): the account is a customer of the card provider. */
export const PaymentSubscription = Type.Object({
  accountId: Type.String(),
  provider: Type.String(),
  customerId: Type.String(),
});
export type PaymentSubscription = Static<typeof PaymentSubscription>;
export const ProviderParams = Type.Object({ provider: Type.String({ pattern: '^[a-z]{1,20}$' }) });
export const AttachCardBody = Type.Object(
  { cardToken: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export const CardIdBody = Type.Object({ cardId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
export const UpdateCardBody = Type.Object(
  {
    cardId: Type.String({ format: 'uuid' }),
    expireMonth: Type.Integer({ minimum: 1, maximum: 12 }),
    expireYear: Type.Integer({ minimum: 2000, maximum: 2100 }),
  },
  { additionalProperties: false },
);
export type SetupIntent = Static<typeof SetupIntent>;
/** POST /payment/card: the id of the card just attached. */
export const AttachedCard = Type.Object({ cardId: Type.String() });

/** The card as the local processor takes it from the card-entry component (never the console API). */
export const ProcessorCard = Type.Object(
  {
    number: Type.String({ minLength: 1, maxLength: 32 }),
    exp_month: Type.Integer(),
    exp_year: Type.Integer(),
    cvc: Type.String({ maxLength: 8 }),
  },
  { additionalProperties: false },
);
/** A setup intent of the local processor, named in its path. */
export const SetupIntentParams = Type.Object({ id: Type.String({ pattern: '^seti_[A-Za-z0-9]{24}$' }) });
export const ConfirmSetupIntentBody = Type.Object(
  { client_secret: Type.String({ maxLength: 200 }), card: ProcessorCard },
  { additionalProperties: false },
);
/** The card holder's answer to the local processor's confirmation challenge. */
export const SetupIntentChallengeBody = Type.Object(
  { client_secret: Type.String({ maxLength: 200 }), approve: Type.Boolean() },
  { additionalProperties: false },
);
/** A charge of the local processor, whose receipt page is at its random id. */
export const ChargeReceiptParams = Type.Object({ chargeId: Type.String({ pattern: '^ch_[A-Za-z0-9]{24}$' }) });

/** spec A §5, §9: a deposit is a whole number of USD from the DEPOSIT setting's minAmount to 99999. */
export const DEPOSIT_MAX = 99999;
export const DepositBody = Type.Object(
  { cardId: Type.String({ format: 'uuid' }), depositAmount: Type.Number() },
  { additionalProperties: false },
);
export const DepositHeaders = Type.Object({
  'ebs-account-id': Type.String({ format: 'uuid' }),
  'idempotency-key': Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{8,100}$' })),
});
export const DepositResult = Type.Object({
  transactionId: Type.String(),
  status: Type.Literal('COMPLETED'),
  amount: Type.Number(),
  receiptUrl: Type.String(),
});
export type DepositResult = Static<typeof DepositResult>;
