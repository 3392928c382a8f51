import { FilePdfOutlined } from '@ant-design/icons';
import { Button, DatePicker, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { saveFile } from '../../lib/save-file';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { downloadStatement } from './billing-queries';

const T = Texts.billing;
const DAY = 'YYYY-MM-DD';

/**
 * A month's statement as a PDF (opening balance, every credit and usage withdrawal, closing
 * balance), made on demand; the current month runs to today (UTC).
 */
export function StatementDownload({ accountId }: { accountId: string }) {
  // Today as a UTC day: the statement's days are UTC days.
  const today = dayjs(new Date().toISOString().slice(0, 10), DAY);
  const [month, setMonth] = useState<Dayjs>(() => today.startOf('month'));
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const end = month.endOf('month').isAfter(today) ? today : month.endOf('month');
      const file = await downloadStatement(accountId, month.format(DAY), end.format(DAY));
      saveFile(file.fileName, new Blob([new Uint8Array(file.pdf.data)], { type: file.contentType }));
    } catch (error) {
      toast.error(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space.Compact>
      <DatePicker
        picker="month"
        value={month}
        allowClear={false}
        aria-label={T.statementMonth}
        disabledDate={(day) => day.isAfter(today, 'month')}
        onChange={(value) => value && setMonth(value.startOf('month'))}
      />
      <Button icon={<FilePdfOutlined />} loading={busy} onClick={download}>
        {T.downloadStatement}
      </Button>
    </Space.Compact>
  );
}
