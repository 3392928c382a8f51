import { Messages, type PaymentCard } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { removalRefusal } from './card-removal';

const card = (id: string, defaultPaymentMethod: boolean): PaymentCard => ({
  id,
  defaultPaymentMethod,
  card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
});

describe('removalRefusal', () => {
  it('refuses to remove the only card', () => {
    const only = card('a', true);
    expect(removalRefusal([only], only)).toBe(Messages.onlyCard);
  });

  it('refuses to remove the default card', () => {
    const first = card('a', true);
    expect(removalRefusal([first, card('b', false)], first)).toBe(Messages.defaultCard);
  });

  it('lets another card go', () => {
    const other = card('b', false);
    expect(removalRefusal([card('a', true), other], other)).toBeUndefined();
  });
});
