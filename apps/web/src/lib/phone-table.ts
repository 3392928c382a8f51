import { type Breakpoint, Grid, type TableProps } from 'antd';

/**
 * A column only screens of md (769 px) and wider show. On a phone a table keeps the column that
 * names the row and its main value; the row's drawer, or the page it opens, shows the rest
 * (docs/decisions.md, "Phones").
 */
export const WIDE_ONLY: Breakpoint[] = ['md'];

/**
 * Wide screens keep every cell on one line and scroll sideways inside the table's own box when the
 * columns do not fit; a phone lets long ids wrap, so its few columns fit the window.
 */
export function useTableScroll(): TableProps['scroll'] {
  const { md } = Grid.useBreakpoint();
  return md === false ? undefined : { x: 'max-content' };
}
