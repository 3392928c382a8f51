import { InputNumber, type InputNumberProps, Typography } from 'antd';
import { useState } from 'react';
import { formatAmountInput, isBlockedAmountKey, parseAmountInput, writesCents } from '../../lib/amount';
import { Texts } from '../../lib/texts';

type AmountInputProps = Omit<InputNumberProps, 'formatter' | 'parser' | 'precision' | 'onKeyDown' | 'min' | 'max'>;

/**
 * A USD amount (spec A §5): digits only, shown as "$ 1,000". It keeps what was typed, 0 or past the
 * limits included: the form's rule says what is wrong (`amountError`), where a clamp would quietly
 * turn 0 into 1 and 100000 into 99,999 and go on to pay that. A typed or pasted decimal separator is
 * refused where the user sees it ("Whole US dollars only.") and never shifts the amount: the digits
 * typed after it are its cents and are dropped too, so "12.50" stays 12, never 1,250, until the user
 * edits the field again.
 */
export function AmountInput(props: AmountInputProps) {
  const [refused, setRefused] = useState(false);
  return (
    <div className="amount-field">
      <InputNumber
        {...props}
        className="amount-input"
        precision={0}
        inputMode="numeric"
        formatter={(value) => formatAmountInput(value)}
        parser={parseAmountInput}
        onKeyDown={(event) => {
          const withModifier = event.ctrlKey || event.metaKey || event.altKey;
          if (withModifier) return;
          if (writesCents(event.key)) {
            event.preventDefault();
            setRefused(true);
          } else if (refused && /^\d$/.test(event.key)) {
            // The digits typed after a refused separator are its cents: dropped, never dollars.
            event.preventDefault();
          } else if (isBlockedAmountKey(event.key, false)) {
            event.preventDefault();
          } else if (event.key.length > 1 && event.key !== 'Tab' && event.key !== 'Enter') {
            // Editing (Backspace, Delete, the arrows) takes the amount up again.
            setRefused(false);
          }
        }}
        onPaste={(event) => {
          const cents = writesCents(event.clipboardData.getData('text'));
          // Refused whole: the amount stays what it was.
          if (cents) event.preventDefault();
          setRefused(cents);
        }}
      />
      {refused && (
        <Typography.Text type="danger" role="alert" className="amount-refusal">
          {Texts.billing.wholeDollarsOnly}
        </Typography.Text>
      )}
    </div>
  );
}
