import type { TablePaginationConfig, TableProps } from 'antd';

/** spec A §2, §9 and spec B §9: tables paged on the server show 10 rows a page, with no size changer. */
export const TABLE_PAGE_SIZE = 10;

/** The offset of a 1-based page (spec A §7: offset (page-1)*10). */
export const pageOffset = (page: number) => (page - 1) * TABLE_PAGE_SIZE;

export const serverPagination = (page: number, total: number | undefined): TablePaginationConfig => ({
  current: page,
  pageSize: TABLE_PAGE_SIZE,
  total: total ?? 0,
  showSizeChanger: false,
});

export type SortDirection = 'asc' | 'desc';

/** antd's name of a server sort direction, for a column's controlled `sortOrder`. */
export const antdSortOrder = (order: SortDirection | undefined) =>
  order === 'asc' ? 'ascend' : order === 'desc' ? 'descend' : null;

type OnChange<T> = NonNullable<TableProps<T>['onChange']>;

export interface TableChange {
  /** The page to show: a new sort or filter starts again at the first page. */
  page: number;
  /** The key of the sorted column, when a column is sorted. */
  sortKey?: string;
  order?: SortDirection;
  /** The chosen filter values of each column, left out when none is chosen. */
  filters: Record<string, string[] | undefined>;
}

/** What a change of an antd table asks of the server. */
export function readTableChange<T>(...[pagination, filters, sorter, extra]: Parameters<OnChange<T>>): TableChange {
  const sort = Array.isArray(sorter) ? sorter[0] : sorter;
  const chosen: TableChange['filters'] = {};
  for (const [key, values] of Object.entries(filters)) {
    chosen[key] = values?.length ? values.map(String) : undefined;
  }
  return {
    page: extra.action === 'paginate' ? (pagination.current ?? 1) : 1,
    sortKey: sort?.order ? String(sort.columnKey) : undefined,
    order: sort?.order ? (sort.order === 'ascend' ? 'asc' : 'desc') : undefined,
    filters: chosen,
  };
}
