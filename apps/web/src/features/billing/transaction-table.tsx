import { describeTransactionType, type Transaction } from '@ebs/contract';
import { Table, type TableProps, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { ExportButton } from '../../components/export-button';
import { tableLocale } from '../../components/load-state';
import { SignedAmount } from '../../components/signed-amount';
import { formatDateTime } from '../../lib/format';
import { useTableScroll, WIDE_ONLY } from '../../lib/phone-table';
import { antdSortOrder, readTableChange, serverPagination } from '../../lib/server-table';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { exportTransactions, type TransactionParams, useTransactions, useTransactionTypes } from './billing-queries';
import { ReceiptDownload } from './receipt-download';
import { StatementDownload } from './statement-download';

const T = Texts.billing;

/** Transaction History (spec A §2): filtered, sorted and paged on the server, 10 per page. */
export function TransactionTable({ accountId }: { accountId: string }) {
  const [params, setParams] = useState<TransactionParams>({ page: 1 });
  const { data, isFetching, error, refetch } = useTransactions(accountId, params);
  const types = useTransactionTypes();
  const scroll = useTableScroll();

  useEffect(() => {
    if (error) toast.error(error);
  }, [error]);

  const sortOrder = (key: 'createdAt' | 'amount') => (params.sortBy === key ? antdSortOrder(params.order) : null);

  const columns: TableProps<Transaction>['columns'] = [
    {
      title: T.transactionId,
      dataIndex: 'id',
      key: 'id',
      // A phone keeps what tells a row apart to a person: its type, amount and date.
      responsive: WIDE_ONLY,
      render: (id: string) => <Typography.Text copyable={{ text: id }}>{id}</Typography.Text>,
    },
    {
      title: T.transactionType,
      dataIndex: 'type',
      key: 'type',
      filters: (types.data ?? []).map((t) => ({ text: t.description, value: t.type })),
      filterSearch: true,
      filteredValue: params.types ?? null,
      render: (type: string) => describeTransactionType(type),
    },
    {
      title: T.amountUsd,
      dataIndex: 'amount',
      key: 'amount',
      sorter: true,
      sortOrder: sortOrder('amount'),
      align: 'right',
      render: (amount: number) => <SignedAmount amount={amount} />,
    },
    {
      title: T.date,
      dataIndex: 'createdAt',
      key: 'createdAt',
      sorter: true,
      sortOrder: sortOrder('createdAt'),
      render: (createdAt: string) => formatDateTime(createdAt),
    },
    {
      title: T.receipt,
      key: 'receipt',
      responsive: WIDE_ONLY,
      render: (_value, tx) => (
        <>
          {tx.metadata.receiptUrl && (
            <a href={tx.metadata.receiptUrl} target="_blank" rel="noopener noreferrer">
              {T.open}
            </a>
          )}
          {tx.status === 'COMPLETED' && <ReceiptDownload accountId={accountId} transactionId={tx.id} />}
        </>
      ),
    },
  ];

  const onChange: TableProps<Transaction>['onChange'] = (...change) => {
    const { page, sortKey, order, filters } = readTableChange(...change);
    setParams({ page, types: filters.type, sortBy: sortKey as TransactionParams['sortBy'], order });
  };

  return (
    <>
      <div className="table-toolbar">
        <StatementDownload accountId={accountId} />
        <ExportButton fileName={`transactions-${accountId}.csv`} load={() => exportTransactions(accountId, params)} />
      </div>
      <Table<Transaction>
        rowKey="id"
        columns={columns}
        dataSource={data?.transactions ?? []}
        loading={isFetching}
        locale={tableLocale({
          // A new page, sort or filter has no rows to show yet: no empty state until it answers.
          loading: isFetching && !data?.transactions.length,
          hint: T.noTransactions,
          failure: { error, onRetry: () => void refetch(), retrying: isFetching },
        })}
        onChange={onChange}
        scroll={scroll}
        pagination={serverPagination(params.page, data?.totalCount)}
      />
    </>
  );
}
