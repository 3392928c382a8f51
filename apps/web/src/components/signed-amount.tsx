import { formatSignedAmount } from '../lib/format';

/** An amount with 5 decimals, a plus sign and green when positive, red otherwise (spec A §2, spec B §9). */
export function SignedAmount({ amount }: { amount: number }) {
  return <span className={amount > 0 ? 'amount-positive' : 'amount-negative'}>{formatSignedAmount(amount)}</span>;
}
