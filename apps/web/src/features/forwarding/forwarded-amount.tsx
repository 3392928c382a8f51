import { SignedAmount } from '../../components/signed-amount';

/**
 * A forwarded token amount as spec B §9 shows amounts: 5 decimals, a plus sign and green when
 * positive. The server's decimal text has more digits; the exact amount shows on hover.
 */
export function ForwardedAmount({ amount }: { amount: string }) {
  return (
    <span title={amount}>
      <SignedAmount amount={Number(amount)} />
    </span>
  );
}
