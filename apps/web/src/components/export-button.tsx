import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { saveFile } from '../lib/save-file';
import { Texts } from '../lib/texts';
import { toast } from '../lib/toast';

interface Props {
  fileName: string;
  /** The CSV's text, with the table's current filters. */
  load: () => Promise<string>;
}

/** Downloads a table's rows, with its current filters, as a CSV file. */
export function ExportButton({ fileName, load }: Props) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      saveFile(fileName, new Blob([await load()], { type: 'text/csv;charset=utf-8' }));
    } catch (error) {
      toast.error(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<DownloadOutlined />} loading={busy} onClick={download}>
      {Texts.exportCsv}
    </Button>
  );
}
