import { cleanup, render, screen } from '@testing-library/react';
import { ConfigProvider, Table } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { theme } from '../config/theme';
import { stubWindowWidth } from '../testing/page-test-kit';
import { useTableScroll, WIDE_ONLY } from './phone-table';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const rows = [{ id: '2fe82d68-3028-4386-a6f6-bc61c14b6059', token: 'ETH' }];

function WalletsTable() {
  return (
    <Table
      rowKey="id"
      scroll={useTableScroll()}
      dataSource={rows}
      columns={[
        { title: 'ID', dataIndex: 'id', key: 'id' },
        { title: 'Token', dataIndex: 'token', key: 'token', responsive: WIDE_ONLY },
      ]}
    />
  );
}

const renderAt = (width: number) => {
  stubWindowWidth(width);
  return render(
    <ConfigProvider theme={theme}>
      <WalletsTable />
    </ConfigProvider>,
  );
};

describe('tables on phones and wide screens (docs/decisions.md, Phones)', () => {
  it('keeps every column from 769 px up, on one line, scrolling inside the table', async () => {
    const { container } = renderAt(769);
    expect(await screen.findByRole('columnheader', { name: 'Token' })).toBeTruthy();
    expect(screen.getByText('ETH')).toBeTruthy();
    expect(container.querySelector('.ant-table-content table')?.getAttribute('style')).toContain('max-content');
  });

  it('leaves the secondary columns out below 769 px and lets the rest wrap to the window', async () => {
    const { container } = renderAt(390);
    expect(await screen.findByRole('columnheader', { name: 'ID' })).toBeTruthy();
    expect(screen.getByText(rows[0]?.id ?? '')).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: 'Token' })).toBeNull();
    expect(screen.queryByText('ETH')).toBeNull();
    expect(container.querySelector('.ant-table-content table')?.getAttribute('style') ?? '').not.toContain(
      'max-content',
    );
  });
});
