import { PlusOutlined } from '@ant-design/icons';
import type { AccountSummary } from '@ebs/contract';
import { HIDDEN_ACCOUNT_NAME, shortenAccountId } from '@ebs/contract';
import { Button, Table, type TableProps, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { AccountStatusTag } from '../../components/account-status-tag';
import { lazyDialog } from '../../components/lazy-dialog';
import { tableLocale } from '../../components/load-state';
import { accountPath, paths } from '../../config/paths';
import { openableRow } from '../../lib/openable-row';
import { useTableScroll, WIDE_ONLY } from '../../lib/phone-table';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { loadAccount } from '../../session/load-account';
import { ACCOUNTS_PAGE_SIZE, useAccountList } from './account-queries';

// Shown to a user without an account only: its antd Alert stays out of the page's first download.
const FirstRunWelcome = lazyDialog(() => import('./first-run-welcome').then((m) => m.FirstRunWelcome));

const columns: TableProps<AccountSummary>['columns'] = [
  { title: Texts.accountName, dataIndex: 'name', key: 'name' },
  {
    title: Texts.accountId,
    dataIndex: 'id',
    key: 'id',
    responsive: WIDE_ONLY,
    render: (id: string) => <span title={id}>{shortenAccountId(id)}</span>,
  },
  {
    title: Texts.status,
    key: 'status',
    render: (_value, account) => <AccountStatusTag isBillingApiEnabled={account.isBillingApiEnabled} />,
  },
  { title: Texts.role, dataIndex: 'roleName', key: 'roleName', responsive: WIDE_ONLY },
];

/** /accounts (spec A §2): the user's accounts, paged on the server. */
export function AccountsPage() {
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [opening, setOpening] = useState(false);
  const scroll = useTableScroll();
  const { data, isFetching, isLoading, error, refetch } = useAccountList(page);

  useEffect(() => {
    if (error) toast.error(error);
  }, [error]);

  // The account opens even when loading it fails: the error shows and the overview still loads.
  const openAccount = async (accountId: string) => {
    setOpening(true);
    try {
      await loadAccount(accountId);
    } catch (loadError) {
      toast.error(loadError);
    } finally {
      setOpening(false);
    }
    await navigate(accountPath(accountId, 'overview'));
  };

  const accounts = (data?.accounts ?? []).filter((account) => account.name !== HIDDEN_ACCOUNT_NAME);
  // A new user (none on the first page, none anywhere) is led to create one.
  const firstRun = data !== undefined && page === 1 && accounts.length === 0 && data.total <= data.accounts.length;

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.myAccounts}</Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(paths.accountsCreate)}>
          {Texts.createNewAccount}
        </Button>
      </div>
      {firstRun && <FirstRunWelcome />}
      <Table<AccountSummary>
        className="clickable-rows"
        rowKey="id"
        columns={columns}
        dataSource={accounts}
        loading={isFetching || opening}
        locale={tableLocale({
          loading: isLoading,
          hint: Texts.noAccounts,
          failure: { error, onRetry: () => void refetch(), retrying: isFetching },
        })}
        scroll={scroll}
        // A row opens its account: reachable with Tab and opened with Enter or Space, as with a click.
        onRow={(account) => openableRow(() => void openAccount(account.id))}
        pagination={{
          current: page,
          pageSize: ACCOUNTS_PAGE_SIZE,
          total: data?.total ?? 0,
          showSizeChanger: false,
          position: ['bottomRight'],
          onChange: setPage,
        }}
      />
    </>
  );
}
