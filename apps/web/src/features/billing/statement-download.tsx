import { DownOutlined, FilePdfOutlined } from '@ant-design/icons';
import { Button, Dropdown, Space } from 'antd';
import { useState } from 'react';
import { saveFile } from '../../lib/save-file';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { downloadStatement } from './billing-queries';

const T = Texts.billing;
/** How many months, this one included, the menu offers. */
const MONTHS = 12;

interface StatementMonth {
  /** The month's first day, YYYY-MM-DD. */
  start: string;
  /** Its last day, or today for this month (UTC days, as the statement's). */
  end: string;
  label: string;
}

const day = (date: Date) => date.toISOString().slice(0, 10);
const monthName = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** This month (to date) and the eleven before it, newest first. */
export function statementMonths(now: Date): StatementMonth[] {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return Array.from({ length: MONTHS }, (_, back) => {
    const first = new Date(Date.UTC(year, month - back, 1));
    const last = new Date(Date.UTC(year, month - back + 1, 0));
    const label = monthName.format(first);
    return back === 0
      ? { start: day(first), end: day(now), label: T.statementToDate(label) }
      : { start: day(first), end: day(last), label };
  });
}

/**
 * A month's statement as a PDF (opening balance, every credit and usage withdrawal, closing
 * balance), made on demand: the button gives this month to date, its menu the months before.
 */
export function StatementDownload({ accountId }: { accountId: string }) {
  const [busy, setBusy] = useState(false);
  const months = statementMonths(new Date());
  const download = async ({ start, end }: StatementMonth) => {
    setBusy(true);
    try {
      const file = await downloadStatement(accountId, start, end);
      saveFile(file.fileName, new Blob([new Uint8Array(file.pdf.data)], { type: file.contentType }));
    } catch (error) {
      toast.error(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space.Compact>
      <Button icon={<FilePdfOutlined />} loading={busy} onClick={() => download(months[0] as StatementMonth)}>
        {T.downloadStatement}
      </Button>
      <Dropdown
        trigger={['click']}
        disabled={busy}
        menu={{
          items: months.map((m) => ({ key: m.start, label: m.label })),
          onClick: ({ key }) => {
            const chosen = months.find((m) => m.start === key);
            if (chosen) void download(chosen);
          },
        }}
      >
        <Button icon={<DownOutlined />} aria-label={T.statementMonth} />
      </Dropdown>
    </Space.Compact>
  );
}
