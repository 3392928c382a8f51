import type { KeyboardEvent } from 'react';

/**
 * A table row that opens something: reached with Tab, opened by a click, Enter or Space, as a button
 * is. Keys pressed on a control inside the row (a copy button) stay that control's.
 */
export function openableRow(open: () => void) {
  return {
    tabIndex: 0,
    onClick: open,
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
      if (event.target !== event.currentTarget || (event.key !== 'Enter' && event.key !== ' ')) return;
      // Space would also scroll the page.
      event.preventDefault();
      open();
    },
  };
}
