import { InputNumber, type InputNumberProps } from 'antd';
import { formatAmountInput, isBlockedAmountKey, parseAmountInput } from '../../lib/amount';

type AmountInputProps = Omit<InputNumberProps, 'formatter' | 'parser' | 'precision' | 'onKeyDown' | 'min' | 'max'>;

/**
 * A USD amount (spec A §5): digits only, shown as "$ 1,000". It keeps what was typed, 0 or past the
 * limits included: the form's rule says what is wrong (`amountError`), where a clamp would quietly
 * turn 0 into 1 and 100000 into 99,999 and go on to pay that.
 */
export function AmountInput(props: AmountInputProps) {
  return (
    <InputNumber
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
