import type { RolledApiKey } from '@ebs/contract';
import { Alert, Button, Modal, Typography } from 'antd';
import { SecretValue } from '../../components/secret-value';
import { formatDateTime } from '../../lib/format';
import { Texts } from '../../lib/texts';

const T = Texts.keys;

interface NewApiKeyModalProps {
  /** A created key or a rolled one: the key id and the secret (and, rolled, until when the old one works). */
  created: Pick<RolledApiKey, 'key'> & Partial<Pick<RolledApiKey, 'previousKeyWorksUntil'>>;
  onDone: () => void;
}

/**
 * The one-time display (spec A §2) of a created or rolled key: the key id and the key, each with a
 * copy button. The key is never shown again, so only Done closes it: no close icon, no click
 * outside, no Escape.
 */
export function NewApiKeyModal({ created, onDone }: NewApiKeyModalProps) {
  return (
    <Modal
      open
      title={T.newApiKey}
      closable={false}
      maskClosable={false}
      keyboard={false}
      footer={[
        <Button key="done" type="primary" onClick={onDone}>
          {T.done}
        </Button>,
      ]}
    >
      <Alert type="warning" showIcon message={T.displayedOnce} style={{ marginBottom: 16 }} />
      <SecretValue label={T.apiKeyId} value={created.key.keyId} />
      <SecretValue label={T.apiKey} value={created.key.key} />
      {created.previousKeyWorksUntil !== undefined && (
        <Typography.Paragraph type="secondary" className="rolled-key-until">
          {created.previousKeyWorksUntil === null
            ? T.previousKeyStopped
            : T.previousKeyWorksUntil(formatDateTime(created.previousKeyWorksUntil))}
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
