import { Messages, RECOVERY_CODE_PATTERN } from '@ebs/contract';
import { Form, Input } from 'antd';
import { Texts } from '../../lib/texts';
import { digitsOnly, required } from './form-rules';

interface SecondFactorFieldProps {
  /** A recovery code instead of the 6-digit code of the authenticator app. */
  recovery?: boolean;
  label?: string;
}

/** The field `code` of a two-factor form: 6 digits from the app, or a recovery code. Focused when shown. */
export function SecondFactorField({ recovery = false, label }: SecondFactorFieldProps) {
  if (recovery) {
    return (
      <Form.Item
        key="recovery"
        label={label ?? Texts.twoFactor.recoveryCode}
        name="code"
        normalize={(value?: string) => (value ?? '').trim()}
        rules={[
          required(Messages.recoveryCodeRequired),
          { pattern: new RegExp(RECOVERY_CODE_PATTERN), message: Messages.recoveryCodeFormat },
        ]}
      >
        <Input autoFocus autoComplete="off" autoCapitalize="off" spellCheck={false} maxLength={11} />
      </Form.Item>
    );
  }
  return (
    <Form.Item
      key="app"
      label={label ?? Texts.twoFactor.authenticationCode}
      name="code"
      normalize={digitsOnly}
      rules={[required(Messages.authCodeRequired), { pattern: /^\d{6}$/, message: Messages.authCodeFormat }]}
    >
      <Input autoFocus inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
    </Form.Item>
  );
}
