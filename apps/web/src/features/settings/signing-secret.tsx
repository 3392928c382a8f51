import { Button, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { CopyButton } from '../../components/copy-button';
import { lazyDialog } from '../../components/lazy-dialog';
import { formatDateTime } from '../../lib/format';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useSigningSecret } from './settings-queries';

// Opened on demand: its Modal loads on first open, not with the page.
const RotateSigningSecretModal = lazyDialog(() =>
  import('./rotate-signing-secret-modal').then((m) => m.RotateSigningSecretModal),
);

const T = Texts.settings;

interface SigningSecretValueProps {
  accountId: string;
  /** The owner's: Reveal and Rotate are offered (docs/roles.md); a member is told who can. */
  isOwner: boolean;
}

/**
 * spec B §2: the signing secret stays hidden, and unfetched, until the user chooses Reveal. Only the
 * owner may reveal it (it can sign the account's webhooks) and rotate it; the new secret then shows,
 * with until when the previous one still signs.
 */
export function SigningSecretValue({ accountId, isOwner }: SigningSecretValueProps) {
  const [revealed, setRevealed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [previousUntil, setPreviousUntil] = useState<string | null>(null);
  const { data, error, isFetching } = useSigningSecret(accountId, revealed);

  useEffect(() => {
    if (!error) return;
    toast.error(error);
    setRevealed(false);
  }, [error]);

  const onRotated = (previousSecretExpiresAt: string | null) => {
    setPreviousUntil(previousSecretExpiresAt);
    setRevealed(true);
  };
  const rotation = (
    <>
      {isOwner && (
        <Button size="small" danger onClick={() => setConfirming(true)}>
          {T.rotate}
        </Button>
      )}
      {confirming && (
        <RotateSigningSecretModal accountId={accountId} onRotated={onRotated} onClose={() => setConfirming(false)} />
      )}
    </>
  );

  if (revealed && data) {
    return (
      <Space direction="vertical" size={4}>
        <Space wrap>
          <Typography.Text code className="signing-secret" data-testid="signing-secret">
            {data.secret}
          </Typography.Text>
          <CopyButton text={data.secret} size="small" />
          <Button size="small" onClick={() => setRevealed(false)}>
            {T.hide}
          </Button>
          {rotation}
        </Space>
        {previousUntil && (
          <Typography.Text type="secondary">{T.previousSecretUntil(formatDateTime(previousUntil))}</Typography.Text>
        )}
      </Space>
    );
  }
  return (
    <Space wrap>
      <Typography.Text aria-label={T.signingSecret}>{T.hiddenSecret}</Typography.Text>
      {isOwner ? (
        <Button size="small" disabled={revealed && isFetching} onClick={() => setRevealed(true)}>
          {T.reveal}
        </Button>
      ) : (
        <Typography.Text type="secondary">{T.ownerOnlySecret}</Typography.Text>
      )}
      {rotation}
    </Space>
  );
}
