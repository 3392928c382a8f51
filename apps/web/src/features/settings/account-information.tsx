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

/**
 * The signed-in user's own role(s) in the account, as words ("Owner", "Member"): their rows of the
 * account's users, or the role the account list gave them when the list does not name them.
 */
const ownRoles = (account: AccountDetails, userId: string | undefined) => {
  const mine = account.userRoles.filter((u: UserRole) => u.id === userId).map((u) => u.roleName);
  const roles = [...new Set(mine.length > 0 ? mine : [account.roleName])];
  return roles.map(T.roleLabel).join(', ');
};

interface AccountInformationProps {
  accountId: string;
  account: AccountDetails | undefined;
  currentUserId: string | undefined;
  canManage: boolean;
}

/** Account Information (spec B §2): name with its edit icon, status, id, creation date, owner, roles, secret. */
export function AccountInformation({ accountId, account, currentUserId, canManage }: AccountInformationProps) {
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
    { key: 'userRoles', label: T.userRoles, children: ownRoles(account, currentUserId) },
    {
      key: 'signingSecret',
      label: T.signingSecret,
      children: <SigningSecretValue accountId={accountId} isOwner={canManage} />,
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
