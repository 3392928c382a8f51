import { InboxOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Empty } from 'antd';
import type { ReactNode } from 'react';
import { errorText } from '../lib/error-text';
import { Texts } from '../lib/texts';

interface LoadFailedProps {
  error: unknown;
  onRetry: () => void;
  /** True while the retry runs: the button waits, so a second click asks nothing twice. */
  retrying?: boolean;
}

/** A failed load, where its content would be: what went wrong, what to do, and a button to try again. */
export function LoadFailed({ error, onRetry, retrying = false }: LoadFailedProps) {
  return (
    <div className="load-failed">
      <div className="load-failed-text">
        {errorText(error)} {Texts.loadFailedHint}
      </div>
      <Button icon={<ReloadOutlined aria-hidden="true" />} disabled={retrying} onClick={onRetry}>
        {Texts.tryAgain}
      </Button>
    </div>
  );
}

export interface TableStateProps {
  /** True until the first answer: the table shows a blank of the empty state's size, not "No data". */
  loading: boolean;
  /** What to do when there is nothing yet, shown once the list is known to be empty. */
  hint: ReactNode;
  /** A failed load, with the retry that asks again. */
  failure?: LoadFailedProps;
}

/** The body of a table with no rows: a blank while loading, the failure with a retry, or the hint. */
export function TableState({ loading, hint, failure }: TableStateProps) {
  if (loading) return <div className="table-state-loading" aria-hidden="true" />;
  if (failure?.error) return <LoadFailed {...failure} />;
  // Not antd's default picture: its SVG title reads "No data" to screen readers and in text content.
  return (
    <Empty
      className="table-state-empty"
      image={<InboxOutlined className="table-state-icon" aria-hidden="true" />}
      description={hint}
    />
  );
}

/** A table's `locale` for TableState. */
export const tableLocale = (state: TableStateProps) => ({ emptyText: <TableState {...state} /> });
