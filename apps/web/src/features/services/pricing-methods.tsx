import { LOGS_BLOCKS_PER_UNIT, type RpcPricing } from '@ebs/contract';
import { Card, Input, Table, type TableProps, Typography } from 'antd';
import { useState } from 'react';
import { tableLocale } from '../../components/load-state';
import { useTableScroll } from '../../lib/phone-table';
import { TABLE_PAGE_SIZE } from '../../lib/server-table';
import { searchMethods } from './method-search';
import { PricingTexts as T } from './pricing-texts';

type MethodPrice = RpcPricing['methods'][number];

const blocks = LOGS_BLOCKS_PER_UNIT.toLocaleString('en-US');

const columns: TableProps<MethodPrice>['columns'] = [
  {
    title: T.method,
    dataIndex: 'method',
    key: 'method',
    render: (method: string) => <Typography.Text code>{method}</Typography.Text>,
  },
  {
    title: T.computeUnits,
    dataIndex: 'computeUnits',
    key: 'computeUnits',
    align: 'right',
    // eth_getLogs' units are per started 1 000 blocks of its range.
    render: (units: number, row) =>
      row.priceClass === 'logs' ? T.perBlocks(units, blocks) : units.toLocaleString('en-US'),
  },
  { title: T.priceClass, dataIndex: 'priceClass', key: 'priceClass' },
];

/** Every method's compute units and class, searched by name as the gateway looks a method up. */
export function PricingMethods({ methods, loading }: { methods: MethodPrice[] | undefined; loading: boolean }) {
  const [typed, setTyped] = useState('');
  const [page, setPage] = useState(1);
  const scroll = useTableScroll();
  const found = searchMethods(methods ?? [], typed);

  return (
    <Card title={T.methods} className="pricing-card">
      <Input.Search
        className="pricing-search"
        aria-label={T.searchMethods}
        placeholder={T.searchPlaceholder}
        allowClear
        value={typed}
        onChange={(event) => {
          setTyped(event.target.value);
          setPage(1);
        }}
        spellCheck={false}
      />
      <div role="status" className="pricing-priced-as">
        {found.pricedBy && T.pricedAs(typed.trim(), found.pricedBy.method)}
      </div>
      <Table<MethodPrice>
        rowKey="method"
        size="small"
        columns={columns}
        dataSource={found.rows}
        loading={loading}
        pagination={{
          current: page,
          onChange: setPage,
          pageSize: TABLE_PAGE_SIZE,
          hideOnSinglePage: true,
          showSizeChanger: false,
        }}
        scroll={scroll}
        locale={tableLocale({ loading, hint: T.noMethods })}
      />
    </Card>
  );
}
