import { Button, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { CopyButton } from '../../components/copy-button';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useSigningSecret } from './settings-queries';

const T = Texts.settings;

/** spec B §2: the signing secret stays hidden, and unfetched, until the user chooses Reveal. */
export function SigningSecretValue({ accountId }: { accountId: string }) {
  const [revealed, setRevealed] = useState(false);
  const { data, error, isFetching } = useSigningSecret(accountId, revealed);

  useEffect(() => {
    if (!error) return;
    toast.error(error);
    setRevealed(false);
  }, [error]);

  if (revealed && data) {
    return (
      <Space wrap>
        <Typography.Text code className="signing-secret" data-testid="signing-secret">
          {data.secret}
        </Typography.Text>
        <CopyButton text={data.secret} size="small" />
        <Button size="small" onClick={() => setRevealed(false)}>
          {T.hide}
        </Button>
      </Space>
    );
  }
  return (
    <Space wrap>
      <Typography.Text aria-label={T.signingSecret}>{T.hiddenSecret}</Typography.Text>
      <Button size="small" disabled={revealed && isFetching} onClick={() => setRevealed(true)}>
        {T.reveal}
      </Button>
    </Space>
  );
}
