import type { ApiKey, RolledApiKey } from '@ebs/contract';
import { Button, Drawer, Flex, Form, Modal, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { DetailRow } from '../../components/detail-row';
import { LoadFailed } from '../../components/load-state';
import { toast } from '../../lib/toast';
import { rememberKeySecret } from '../../session/key-secrets';
import { KeySecurityForm } from './key-security-form';
import { KeySecurityTexts as T } from './key-security-texts';
import { hasChanges, type SecurityValues } from './key-settings-changes';
import { useApiKeySettings } from './keys-queries';
import { NewApiKeyModal } from './new-api-key-modal';
import { RollKeyDialog } from './roll-key-dialog';

interface KeyDetailsDrawerProps {
  accountId: string;
  apiKey: ApiKey;
  onClose: () => void;
}

/**
 * A key's details: its id, the roll of its secret, and its security settings. Closing it (the close
 * button, Escape, the mask) with unsaved settings asks first; so does leaving the page.
 */
export function KeyDetailsDrawer({ accountId, apiKey, onClose }: KeyDetailsDrawerProps) {
  const settings = useApiKeySettings(accountId, apiKey.id);
  const [form] = Form.useForm<SecurityValues>();
  const [rolling, setRolling] = useState(false);
  const [rolled, setRolled] = useState<RolledApiKey | null>(null);
  const [leaving, setLeaving] = useState(false);
  const saved = settings.data;

  useEffect(() => {
    if (settings.error) toast.error(settings.error);
  }, [settings.error]);

  // Read when asked, not on every keystroke: the form is mounted whenever the settings are loaded.
  const unsaved = () => saved !== undefined && hasChanges(saved, form.getFieldsValue(true));

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!unsaved()) return;
      event.preventDefault();
      // The older way some browsers still need to ask.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  });

  const requestClose = () => (unsaved() ? setLeaving(true) : onClose());

  // The dialogs are the drawer's siblings, not its children: a key pressed in them (Escape) would
  // otherwise reach the drawer through the React tree and close it, the one-time secret with it.
  return (
    <>
      <Drawer open title={apiKey.name} onClose={requestClose} width="min(600px, 100vw)">
        <DetailRow title={T.apiKeyId} value={apiKey.id} copyable />
        <Flex wrap gap="small" align="center" style={{ marginBlock: 16 }}>
          <Button onClick={() => setRolling(true)}>{T.rollKey}</Button>
          <Typography.Text type="secondary">{T.rollHint}</Typography.Text>
        </Flex>
        <Typography.Title level={4}>{T.security}</Typography.Title>
        <Typography.Paragraph type="secondary">{T.securityIntro}</Typography.Paragraph>
        {saved ? (
          <KeySecurityForm accountId={accountId} apiKeyId={apiKey.id} settings={saved} form={form} />
        ) : settings.error ? (
          <LoadFailed error={settings.error} onRetry={() => void settings.refetch()} retrying={settings.isFetching} />
        ) : (
          <Skeleton active />
        )}
      </Drawer>
      {rolling && (
        <RollKeyDialog
          accountId={accountId}
          apiKey={apiKey}
          onRolled={(secret) => {
            setRolling(false);
            rememberKeySecret(secret.key.keyId, secret.key.key);
            setRolled(secret);
          }}
          onClose={() => setRolling(false)}
        />
      )}
      {rolled && <NewApiKeyModal created={rolled} onDone={() => setRolled(null)} />}
      {leaving && (
        <Modal
          open
          title={T.leaveTitle}
          okText={T.leave}
          okButtonProps={{ danger: true }}
          cancelText={T.keepEditing}
          onOk={onClose}
          onCancel={() => setLeaving(false)}
        >
          {T.leaveText}
        </Modal>
      )}
    </>
  );
}
