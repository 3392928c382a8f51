import { Alert, Button, Flex, Typography } from 'antd';
import { CopyButton } from '../../components/copy-button';
import { Texts } from '../../lib/texts';

/** The recovery codes, shown once right after two-factor sign-in is turned on. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Flex vertical gap="middle">
      <Alert
        type="warning"
        showIcon
        message={Texts.twoFactor.recoveryCodesTitle}
        description={Texts.twoFactor.recoveryCodesText}
      />
      <Flex align="start" gap="middle">
        <ul className="recovery-codes" aria-label={Texts.twoFactor.recoveryCodesList}>
          {codes.map((code) => (
            <li key={code}>
              <Typography.Text code>{code}</Typography.Text>
            </li>
          ))}
        </ul>
        <CopyButton text={codes.join('\n')} />
      </Flex>
      <div>
        <Button type="primary" onClick={onDone}>
          {Texts.twoFactor.saved}
        </Button>
      </div>
    </Flex>
  );
}
