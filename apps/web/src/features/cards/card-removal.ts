import { Messages, type PaymentCard } from '@ebs/contract';

/**
 * Why a card cannot be removed, checked before any call (spec A §5): the only card, then the
 * default card. Undefined when it can be removed.
 */
export function removalRefusal(cards: readonly PaymentCard[], card: PaymentCard): string | undefined {
  if (cards.length <= 1) return Messages.onlyCard;
  if (card.defaultPaymentMethod) return Messages.defaultCard;
  return undefined;
}
