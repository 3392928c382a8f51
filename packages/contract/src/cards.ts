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
