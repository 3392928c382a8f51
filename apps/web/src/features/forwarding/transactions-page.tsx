import { SearchOutlined } from '@ant-design/icons';
import { displayNetworkName, type TokenForwardingTransaction } from '@ebs/contract';
import { Input, Table, type TableProps, Typography } from 'antd';
import { useState } from 'react';
import { useLocation, useParams } from 'react-router-dom';
import { lazyDialog } from '../../components/lazy-dialog';
import { tableLocale } from '../../components/load-state';
import { shortValue } from '../../components/short-value';
import { formatDateTime } from '../../lib/format';
import { openableRow } from '../../lib/openable-row';
import { useTableScroll, WIDE_ONLY } from '../../lib/phone-table';
import { TABLE_PAGE_SIZE } from '../../lib/server-table';
import { Texts } from '../../lib/texts';
import { ForwardedAmount } from './forwarded-amount';
import { transactionFilter, useForwardingTransactions } from './forwarding-queries';
import { ForwardingTexts as T } from './forwarding-texts';
import { readTransactionsState } from './navigation-state';
import { useDebouncedValue } from './use-debounced-value';
import './forwarding.css';

// Opened on demand: its Drawer loads on first open, not with the page.
const TransactionDrawer = lazyDialog(() => import('./transaction-drawer').then((m) => m.TransactionDrawer));

/** spec B §9: the search waits this long after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 1000;

const columns: TableProps<TokenForwardingTransaction>['columns'] = [
  {
    title: T.walletId,
    dataIndex: 'tokenForwardingWalletId',
    key: 'walletId',
    render: shortValue,
    responsive: WIDE_ONLY,
  },
  {
    title: T.fromWalletAddress,
    dataIndex: 'fromAddress',
    key: 'fromAddress',
    render: shortValue,
    responsive: WIDE_ONLY,
  },
  { title: T.toWalletAddress, dataIndex: 'toAddress', key: 'toAddress', render: shortValue, responsive: WIDE_ONLY },
  {
    title: T.transactionHash,
    key: 'transactionHash',
    render: (_value, transaction) => shortValue(transaction.metadata.transactionHash),
  },
  { title: T.network, dataIndex: 'network', key: 'network', render: displayNetworkName, responsive: WIDE_ONLY },
  {
    title: T.amount,
    dataIndex: 'amount',
    key: 'amount',
    align: 'right',
    sorter: (a, b) => Number(a.amount) - Number(b.amount),
    render: (amount: string) => <ForwardedAmount amount={amount} />,
  },
  { title: T.webhookStatus, dataIndex: 'webhookStatus', key: 'webhookStatus', responsive: WIDE_ONLY },
  {
    title: T.date,
    dataIndex: 'createdAt',
    key: 'createdAt',
    responsive: WIDE_ONLY,
    sorter: (a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt),
    render: formatDateTime,
  },
];

/**
 * /account/:accountId/services/token-forwarding/transactions (spec B §2, §5): the forwards of the
 * account, searched by wallet id or address; View Transactions opens it searching for its wallet.
 */
export function TransactionsPage() {
  const accountId = useParams().accountId ?? '';
  const { state } = useLocation();
  const [search, setSearch] = useState(() => readTransactionsState(state));
  const filter = transactionFilter(useDebouncedValue(search, SEARCH_DEBOUNCE_MS));
  const transactions = useForwardingTransactions(accountId, filter);
  const [opened, setOpened] = useState<TokenForwardingTransaction | null>(null);
  const scroll = useTableScroll();

  const onRow: TableProps<TokenForwardingTransaction>['onRow'] = (transaction) =>
    openableRow(() => setOpened(transaction));

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.transactions}</Typography.Title>
      </div>
      <Input
        className="forwarding-search"
        placeholder={T.searchPlaceholder}
        aria-label={T.searchLabel}
        allowClear
        prefix={<SearchOutlined />}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <Table<TokenForwardingTransaction>
        className="clickable-rows"
        rowKey="id"
        columns={columns}
        dataSource={transactions.data}
        loading={transactions.isFetching}
        pagination={{ pageSize: TABLE_PAGE_SIZE, showSizeChanger: false }}
        // spec B §8: a failed fetch is only logged and the list empties, so there is no failure to show.
        locale={tableLocale({
          loading: transactions.isLoading,
          hint: Object.keys(filter).length ? T.noMatchingTransactions : T.noTransactions,
        })}
        onRow={onRow}
        scroll={scroll}
      />
      {opened && <TransactionDrawer transaction={opened} onClose={() => setOpened(null)} />}
    </>
  );
}
