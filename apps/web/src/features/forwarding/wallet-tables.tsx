import {
  type DestinationWallet,
  displayNetworkName,
  type GasFeeFundingWallet,
  type TokenForwardingWallet,
} from '@ebs/contract';
import { Table, type TableProps } from 'antd';
import { type TableStateProps, tableLocale } from '../../components/load-state';
import { shortValue } from '../../components/short-value';
import { formatDateTime } from '../../lib/format';
import { openableRow } from '../../lib/openable-row';
import { useTableScroll, WIDE_ONLY } from '../../lib/phone-table';
import { TABLE_PAGE_SIZE } from '../../lib/server-table';
import { ForwardingTexts as T } from './forwarding-texts';
import { WalletStatusBadge } from './wallet-status-badge';

/** spec B §9: 10 rows a page, no size changer; the lists come whole, so antd pages them here. */
const pagination = { pageSize: TABLE_PAGE_SIZE, showSizeChanger: false } as const;

const time = (iso: string | null) => (iso ? Date.parse(iso) : 0);
const dateText = (iso: string | null) => (iso ? formatDateTime(iso) : '');

interface WalletTableProps<W> {
  wallets: W[] | undefined;
  loading: boolean;
  /** A failed load of the list, with its retry. */
  failure?: TableStateProps['failure'];
  onOpen: (wallet: W) => void;
}

/** A row opens the wallet's details on a click, or on Enter or Space for keyboard users. */
function openableRows<W>(onOpen: (wallet: W) => void): TableProps<W>['onRow'] {
  return (wallet) => openableRow(() => onOpen(wallet));
}

function WalletTable<W extends { id: string }>({
  wallets,
  loading,
  failure,
  onOpen,
  columns,
  emptyText,
}: WalletTableProps<W> & { columns: TableProps<W>['columns']; emptyText: string }) {
  const scroll = useTableScroll();
  return (
    <Table<W>
      // Middle padding: the forwarding wallets' eight columns fit a 1440 px window.
      size="middle"
      className="clickable-rows"
      rowKey="id"
      columns={columns}
      dataSource={wallets}
      loading={loading}
      pagination={pagination}
      locale={tableLocale({ loading, hint: emptyText, failure })}
      onRow={openableRows(onOpen)}
      scroll={scroll}
    />
  );
}

/** Text kept whole that may take two lines, where one long line would push columns out of view. */
const wrapped = (text: string) => <span className="wrapped-cell">{text}</span>;
/** A date and time, the time on a line of its own. */
const wrappedDate = (iso: string | null) => <span className="wrapped-cell wrapped-date">{dateText(iso)}</span>;

const networkColumn = { title: T.network, dataIndex: 'network', key: 'network', render: displayNetworkName };
const wideNetworkColumn = { ...networkColumn, responsive: WIDE_ONLY };

export function ForwardingWalletTable(props: WalletTableProps<TokenForwardingWallet>) {
  const columns: TableProps<TokenForwardingWallet>['columns'] = [
    // A phone keeps the address (what a person knows a wallet by); the drawer shows the rest. The ID
    // and the date stay whole but take two lines, so that the eight columns fit a 1440 px window.
    { title: T.id, dataIndex: 'id', key: 'id', responsive: WIDE_ONLY, render: wrapped },
    { title: T.token, dataIndex: 'token', key: 'token', responsive: WIDE_ONLY },
    { title: T.address, dataIndex: 'publicAddress', key: 'publicAddress' },
    {
      title: T.status,
      dataIndex: 'status',
      key: 'status',
      render: (status: string) => <WalletStatusBadge status={status} />,
    },
    {
      title: wrapped(T.balanceLastCheckedAt),
      dataIndex: 'balanceLastCheckedAt',
      key: 'balanceLastCheckedAt',
      responsive: WIDE_ONLY,
      sorter: (a, b) => time(a.balanceLastCheckedAt) - time(b.balanceLastCheckedAt),
      render: wrappedDate,
    },
    // After the spec's five, what a person scanning the list asks next: where a wallet lives, where
    // its tokens go (shortened; whole on hover and in the drawer) and what it held at the last check.
    wideNetworkColumn,
    {
      title: T.destination,
      dataIndex: 'destinationPublicAddress',
      key: 'destinationPublicAddress',
      responsive: WIDE_ONLY,
      render: shortValue,
    },
    {
      title: T.balance,
      key: 'balance',
      align: 'right',
      responsive: WIDE_ONLY,
      render: (_value, wallet) => (wallet.balance === null ? T.notCheckedYet : `${wallet.balance} ${wallet.token}`),
    },
  ];
  return <WalletTable {...props} columns={columns} emptyText={T.noForwardingWallets} />;
}

export function GasFeeWalletTable(props: WalletTableProps<GasFeeFundingWallet>) {
  const columns: TableProps<GasFeeFundingWallet>['columns'] = [
    // Shortened, so that the six columns fit a 1440 px window; the drawer shows it whole, with Copy.
    { title: T.id, dataIndex: 'id', key: 'id', responsive: WIDE_ONLY, render: shortValue },
    { title: T.name, dataIndex: 'name', key: 'name' },
    wideNetworkColumn,
    { title: T.address, dataIndex: 'publicAddress', key: 'publicAddress' },
    {
      title: T.currentBalance,
      key: 'balance',
      align: 'right',
      render: (_value, wallet) => `${wallet.balance} ${wallet.token}`,
    },
    {
      title: T.balanceLastCheckedAt,
      dataIndex: 'updatedAt',
      key: 'updatedAt',
      responsive: WIDE_ONLY,
      sorter: (a, b) => time(a.updatedAt) - time(b.updatedAt),
      render: dateText,
    },
  ];
  return <WalletTable {...props} columns={columns} emptyText={T.noGasFeeWallets} />;
}

export function DestinationWalletTable(props: WalletTableProps<DestinationWallet>) {
  const columns: TableProps<DestinationWallet>['columns'] = [
    { title: T.name, dataIndex: 'name', key: 'name' },
    networkColumn,
    {
      title: T.destinationPublicAddress,
      dataIndex: 'destinationPublicAddress',
      key: 'destinationPublicAddress',
    },
  ];
  return <WalletTable {...props} columns={columns} emptyText={T.noDestinationWallets} />;
}
