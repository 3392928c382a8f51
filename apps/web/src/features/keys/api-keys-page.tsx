import { PlusOutlined } from '@ant-design/icons';
import type { ApiKey, CreatedApiKey } from '@ebs/contract';
import { Button, Space, Table, type TableProps, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { useApiKeys } from '../../api/keys-queries';
import { EditButton } from '../../components/edit-button';
import { lazyDialog } from '../../components/lazy-dialog';
import { tableLocale } from '../../components/load-state';
import { useTableScroll } from '../../lib/phone-table';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { rememberKeySecret } from '../../session/key-secrets';
import { KeySecurityTexts } from './key-security-texts';
import { useActivateApiKey } from './keys-queries';

// Opened on demand: their Modal and Form load on first open, not with the page.
const CreateApiKeyModal = lazyDialog(() => import('./create-api-key-modal').then((m) => m.CreateApiKeyModal));
const EditApiKeyModal = lazyDialog(() => import('./edit-api-key-modal').then((m) => m.EditApiKeyModal));
const DeactivateApiKeyModal = lazyDialog(() => import('./key-confirmations').then((m) => m.DeactivateApiKeyModal));
const DeleteApiKeyModal = lazyDialog(() => import('./key-confirmations').then((m) => m.DeleteApiKeyModal));
const NewApiKeyModal = lazyDialog(() => import('./new-api-key-modal').then((m) => m.NewApiKeyModal));
const KeyDetailsDrawer = lazyDialog(() => import('./key-details-drawer').then((m) => m.KeyDetailsDrawer));

const T = Texts.keys;

type Dialog =
  | { kind: 'create' }
  | { kind: 'created'; created: CreatedApiKey }
  | { kind: 'edit' | 'deactivate' | 'delete'; apiKey: ApiKey }
  // By id: the drawer shows the key as the list holds it now (renamed, say), and closes once it is gone.
  | { kind: 'details'; apiKeyId: string };

/**
 * /account/:accountId/apiKeys, API Key Management (spec A §2, §4): the keys with their status,
 * rename, Activate or Deactivate, Delete (only when INACTIVE), and Generate New API Keys; Security
 * opens a key's details drawer (ours: its rules, limits, expiry, JWT keys and the roll of its secret).
 */
export function ApiKeysPage() {
  const accountId = useParams().accountId ?? '';
  const keys = useApiKeys(accountId);
  const activate = useActivateApiKey(accountId);
  const location = useLocation();
  const navigate = useNavigate();
  // Create New Key on the RPC page arrives asking for the create dialog.
  const [dialog, setDialog] = useState<Dialog | null>(() =>
    (location.state as { create?: boolean } | null)?.create ? { kind: 'create' } : null,
  );
  const scroll = useTableScroll();
  const close = () => setDialog(null);
  const detailsKey = dialog?.kind === 'details' ? keys.data?.apiKeys.find((k) => k.id === dialog.apiKeyId) : undefined;

  useEffect(() => {
    if (keys.error) toast.error(keys.error);
  }, [keys.error]);

  // Asked once: going back to this entry or reloading it does not open the dialog again.
  useEffect(() => {
    if ((location.state as { create?: boolean } | null)?.create) {
      void navigate(location.pathname, { replace: true, state: null });
    }
  }, [location.state, location.pathname, navigate]);

  const columns: TableProps<ApiKey>['columns'] = [
    {
      title: T.apiKeyName,
      key: 'name',
      render: (_value, apiKey) => (
        <Space>
          <span>{apiKey.name}</span>
          <EditButton label={T.editName} onClick={() => setDialog({ kind: 'edit', apiKey })} />
        </Space>
      ),
    },
    {
      title: T.status,
      dataIndex: 'status',
      key: 'status',
      render: (status: ApiKey['status']) => <Tag color={status === 'ACTIVE' ? 'green' : 'default'}>{status}</Tag>,
    },
    {
      title: T.actions,
      key: 'actions',
      render: (_value, apiKey) => {
        const inactive = apiKey.status === 'INACTIVE';
        return (
          <Space wrap>
            <Button type="link" onClick={() => setDialog({ kind: 'details', apiKeyId: apiKey.id })}>
              {KeySecurityTexts.security}
            </Button>
            {inactive ? (
              <Button
                type="link"
                disabled={activate.isPending && activate.variables === apiKey.id}
                onClick={() => activate.mutate(apiKey.id, { onError: (error) => toast.error(error) })}
              >
                {T.activate}
              </Button>
            ) : (
              <Button type="link" onClick={() => setDialog({ kind: 'deactivate', apiKey })}>
                {T.deactivate}
              </Button>
            )}
            {inactive ? (
              <Button type="link" danger onClick={() => setDialog({ kind: 'delete', apiKey })}>
                {T.delete}
              </Button>
            ) : (
              // A disabled button shows no tooltip of its own: its wrapper says why it is disabled.
              <Tooltip title={T.deleteActiveHint}>
                <span className="disabled-action">
                  <Button type="link" danger disabled aria-describedby={`delete-why-${apiKey.id}`}>
                    {T.delete}
                  </Button>
                  <span id={`delete-why-${apiKey.id}`} hidden>
                    {T.deleteActiveHint}
                  </span>
                </span>
              </Tooltip>
            )}
          </Space>
        );
      },
    },
  ];

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.apiKeys}</Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'create' })}>
          {T.generateNewApiKeys}
        </Button>
      </div>
      <Table<ApiKey>
        rowKey="id"
        columns={columns}
        dataSource={keys.data?.apiKeys}
        loading={keys.isLoading}
        locale={tableLocale({
          loading: keys.isLoading,
          hint: T.noApiKeys,
          failure: { error: keys.error, onRetry: () => void keys.refetch(), retrying: keys.isFetching },
        })}
        scroll={scroll}
      />
      {dialog?.kind === 'create' && (
        <CreateApiKeyModal
          accountId={accountId}
          onCreated={(created) => {
            // Kept in this tab's memory: the RPC page can make a first call with it.
            rememberKeySecret(created.key.keyId, created.key.key);
            setDialog({ kind: 'created', created });
          }}
          onClose={close}
        />
      )}
      {dialog?.kind === 'created' && <NewApiKeyModal created={dialog.created} onDone={close} />}
      {dialog?.kind === 'edit' && <EditApiKeyModal accountId={accountId} apiKey={dialog.apiKey} onClose={close} />}
      {dialog?.kind === 'deactivate' && (
        <DeactivateApiKeyModal accountId={accountId} apiKey={dialog.apiKey} onClose={close} />
      )}
      {dialog?.kind === 'delete' && <DeleteApiKeyModal accountId={accountId} apiKey={dialog.apiKey} onClose={close} />}
      {detailsKey && <KeyDetailsDrawer accountId={accountId} apiKey={detailsKey} onClose={close} />}
    </>
  );
}
