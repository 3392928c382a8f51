import { DEPOSIT_MAX } from '@ebs/contract';
import { InputNumber, type InputNumberProps } from 'antd';
import { formatAmountInput, isBlockedAmountKey, parseAmountInput } from '../../lib/amount';

type AmountInputProps = Omit<InputNumberProps, 'formatter' | 'parser' | 'precision' | 'onKeyDown'>;

/** A USD amount (spec A §5): digits only, shown as "$ 1,000", at most 99999 unless told. */
export function AmountInput(props: AmountInputProps) {
  return (
    <InputNumber
      max={DEPOSIT_MAX}
      {...props}
      className="amount-input"
      precision={0}
      inputMode="numeric"
      formatter={(value) => formatAmountInput(value)}
      parser={parseAmountInput}
      onKeyDown={(event) => {
        if (isBlockedAmountKey(event.key, event.ctrlKey || event.metaKey || event.altKey)) event.preventDefault();
      }}
    />
  );
}
