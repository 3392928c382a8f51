import type { SmartContractInfo, TestWebhookResult } from '@ebs/contract';
import { Button, Modal, Typography } from 'antd';
import { DetailRow } from '../../components/detail-row';
import { ForwardingTexts as T } from './forwarding-texts';

const closeFooter = (onClose: () => void) => [
  <Button key="close" type="primary" onClick={onClose}>
    {T.close}
  </Button>,
];

/** What Verify found at the contract address (spec B §2): address, name and symbol. */
export function SmartContractModal({
  info,
  network,
  onClose,
}: {
  info: SmartContractInfo;
  network: string;
  onClose: () => void;
}) {
  return (
    <Modal open title={T.smartContractInformation} onCancel={onClose} footer={closeFooter(onClose)}>
      <DetailRow title={T.address} value={info.address} link={{ network, kind: 'address' }} />
      <DetailRow title={T.name} value={info.name} />
      <DetailRow title={T.symbol} value={info.symbol} />
    </Modal>
  );
}

/** What the webhook target answered to Test (spec B §2): the URL and the response as JSON text. */
export function WebhookResponseModal({ result, onClose }: { result: TestWebhookResult; onClose: () => void }) {
  return (
    <Modal open title={T.webhookResponse} onCancel={onClose} footer={closeFooter(onClose)}>
      <DetailRow title={T.webhookUrl} value={result.url} />
      <div className="detail-row">
        <Typography.Text type="secondary">{T.response}</Typography.Text>
        <pre className="forwarding-json" data-testid="webhook-response">
          {JSON.stringify(result, null, 2)}
        </pre>
      </div>
    </Modal>
  );
}
