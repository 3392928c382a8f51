import { endpoints } from '@ebs/contract';
import { Button } from 'antd';
import { useState } from 'react';
import { api } from '../../api/client';
import { saveFile } from '../../lib/save-file';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';

/** Downloads the PDF receipt of a transaction by its id (spec A §2) as a file. */
export function ReceiptDownload({ accountId, transactionId }: { accountId: string; transactionId: string }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const file = await api(endpoints.billing.downloadReceipt, {
        accountId,
        query: { transactionId },
      });
      saveFile(file.fileName, new Blob([new Uint8Array(file.pdf.data)], { type: file.contentType }));
    } catch (error) {
      toast.error(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button type="link" size="small" loading={busy} onClick={download}>
      {Texts.billing.download}
    </Button>
  );
}
