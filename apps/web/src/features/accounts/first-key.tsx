import { Alert, Button, Typography } from 'antd';
import { useState } from 'react';
import { useCreateApiKey } from '../../api/keys-queries';
import { useApiBase } from '../../api/public-config';
import { FirstCall } from '../../components/first-call/first-call';
import { FirstCallTexts as T } from '../../components/first-call/first-call-texts';
import { SecretValue } from '../../components/secret-value';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { rememberKeySecret } from '../../session/key-secrets';

/**
 * The wizard's last step, past the spec's Done: "Create your first API key" makes a key in the new
 * account and shows it once, with the account's RPC URL filled in, a curl line and snippets.
 */
export function FirstKey({ accountId }: { accountId: string }) {
  const create = useCreateApiKey(accountId);
  const [created, setCreated] = useState<{ keyId: string; key: string } | null>(null);
  const apiBase = useApiBase();

  const onCreate = () =>
    create.mutate(T.firstKeyName, {
      onSuccess: ({ key }) => {
        rememberKeySecret(key.keyId, key.key);
        setCreated(key);
      },
      onError: (error) => toast.error(error),
    });

  if (!created) {
    return (
      <Button loading={create.isPending} onClick={onCreate}>
        {T.createFirstKey}
      </Button>
    );
  }
  return (
    <section className="first-key" aria-label={T.createFirstKey}>
      <Alert type="warning" showIcon message={Texts.keys.displayedOnce} />
      <Typography.Paragraph>{T.firstKeyIntro}</Typography.Paragraph>
      <SecretValue label={Texts.keys.apiKeyId} value={created.keyId} />
      <SecretValue label={Texts.keys.apiKey} value={created.key} />
      <FirstCall apiBase={apiBase} keyId={created.keyId} apiKey={created.key} />
    </section>
  );
}
