import { UserAddOutlined } from '@ant-design/icons';
import { INVITED_ROLE, OWNER_ROLE, type UserRole } from '@ebs/contract';
import { Button, Card, Table, type TableProps, Tag, Typography } from 'antd';
import { useState } from 'react';
import { lazyDialog } from '../../components/lazy-dialog';
import { useTableScroll, WIDE_ONLY } from '../../lib/phone-table';
import { Texts } from '../../lib/texts';

// Opened on demand: their Modal and Form load on first open, not with the page.
const AddUserModal = lazyDialog(() => import('./add-user-modal').then((m) => m.AddUserModal));
const RemoveUserModal = lazyDialog(() => import('./remove-user-modal').then((m) => m.RemoveUserModal));

const T = Texts.settings;

interface AccountAccessProps {
  accountId: string;
  users: UserRole[] | undefined;
  currentUserId: string | undefined;
  canManage: boolean;
}

/**
 * Account Access (spec B §2, §6): who has access, Add User to Account, and Remove, which is hidden
 * on the user's own row and on any OWNER row (and, for a MEMBER, everywhere: docs/roles.md).
 */
export function AccountAccess({ accountId, users, currentUserId, canManage }: AccountAccessProps) {
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<UserRole | null>(null);
  const scroll = useTableScroll();

  const removable = (user: UserRole) => canManage && user.id !== currentUserId && user.roleName !== OWNER_ROLE;

  const columns: TableProps<UserRole>['columns'] = [
    { title: T.email, dataIndex: 'email', key: 'email' },
    {
      title: T.name,
      key: 'name',
      responsive: WIDE_ONLY,
      render: (_value, user) => [user.firstName, user.lastName].filter(Boolean).join(' '),
    },
    {
      title: T.role,
      dataIndex: 'roleName',
      key: 'roleName',
      responsive: WIDE_ONLY,
      render: (roleName: string) => (
        <>
          <Tag>{roleName}</Tag>
          {roleName === INVITED_ROLE && <Typography.Text type="secondary">{T.invitedUntilAccepted}</Typography.Text>}
        </>
      ),
    },
    {
      title: T.actions,
      key: 'actions',
      render: (_value, user) =>
        removable(user) && (
          <Button type="link" danger onClick={() => setRemoving(user)}>
            {T.remove}
          </Button>
        ),
    },
  ];

  return (
    <Card
      title={T.accountAccess}
      className="settings-card"
      extra={
        canManage && (
          <Button type="primary" icon={<UserAddOutlined />} onClick={() => setAdding(true)}>
            {T.addUserToAccount}
          </Button>
        )
      }
    >
      <Table<UserRole>
        rowKey="id"
        columns={columns}
        dataSource={users}
        loading={!users}
        pagination={false}
        scroll={scroll}
      />
      {adding && <AddUserModal accountId={accountId} onClose={() => setAdding(false)} />}
      {removing && <RemoveUserModal accountId={accountId} user={removing} onClose={() => setRemoving(null)} />}
    </Card>
  );
}
