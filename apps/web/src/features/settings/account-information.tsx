import type { AccountDetails, UserRole } from '@ebs/contract';
import { Card, Descriptions, type DescriptionsProps, Grid, Space } from 'antd';
import { useState } from 'react';
import { AccountStatusTag } from '../../components/account-status-tag';
import { CopyButton } from '../../components/copy-button';
import { EditButton } from '../../components/edit-button';
import { lazyDialog } from '../../components/lazy-dialog';
import { formatDate } from '../../lib/format';
import { Texts } from '../../lib/texts';
import { SigningSecretValue } from './signing-secret';

// Opened on demand: its Modal and Form load on first open, not with the page.
const EditAccountNameModal = lazyDialog(() => import('./edit-account-name-modal').then((m) => m.EditAccountNameModal));

const T = Texts.settings;

/** How many people hold each role, in the order the roles first appear (the owner first). */
const roleCounts = (userRoles: UserRole[]) => {
  const counts = new Map<string, number>();
  for (const { roleName } of userRoles) counts.set(roleName, (counts.get(roleName) ?? 0) + 1);
  return [...counts].map(([roleName, count]) => T.roleCount(roleName, count)).join(', ');
};

interface AccountInformationProps {
  accountId: string;
  account: AccountDetails | undefined;
  canManage: boolean;
}

/** Account Information (spec B §2): name with its edit icon, status, id, creation date, owner, roles, secret. */
export function AccountInformation({ accountId, account, canManage }: AccountInformationProps) {
  const [editing, setEditing] = useState(false);
  // A phone puts each label above its value: the id and the owner's e-mail get the whole width.
  const { md } = Grid.useBreakpoint();

  const items: DescriptionsProps['items'] = account && [
    {
      key: 'name',
      label: T.name,
      children: (
        <Space>
          <span data-testid="account-name">{account.name}</span>
          {canManage && <EditButton label={T.editName} onClick={() => setEditing(true)} />}
        </Space>
      ),
    },
    {
      key: 'status',
      label: T.status,
      children: <AccountStatusTag isBillingApiEnabled={account.isBillingApiEnabled} />,
    },
    {
      key: 'id',
      label: T.id,
      children: (
        <Space>
          <span>{account.id}</span>
          <CopyButton text={account.id} size="small" label={T.copyAccountId} />
        </Space>
      ),
    },
    { key: 'createdAt', label: T.createdAt, children: formatDate(account.createdAt) },
    { key: 'owner', label: T.owner, children: account.owner.email },
    { key: 'userRoles', label: T.userRoles, children: roleCounts(account.userRoles) },
    {
      key: 'signingSecret',
      label: T.signingSecret,
      children: <SigningSecretValue accountId={accountId} canRotate={canManage} />,
    },
  ];

  return (
    <Card title={T.accountInformation} loading={!account} className="settings-card">
      <Descriptions bordered size="small" column={1} layout={md === false ? 'vertical' : 'horizontal'} items={items} />
      {editing && account && (
        <EditAccountNameModal accountId={accountId} currentName={account.name} onClose={() => setEditing(false)} />
      )}
    </Card>
  );
}
