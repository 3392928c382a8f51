import { Button, Modal, Typography } from 'antd';
import { useNavigate } from 'react-router-dom';
import { accountPath } from '../../config/paths';
import { Texts } from '../../lib/texts';

const T = Texts.billing;

/** spec A §2: an account without a card cannot deposit; this dialog cannot be closed, only left by Add. */
export function NoCardModal({ accountId }: { accountId: string }) {
  const navigate = useNavigate();
  return (
    <Modal
      open
      closable={false}
      maskClosable={false}
      keyboard={false}
      footer={
        <Button type="primary" onClick={() => navigate(accountPath(accountId, 'addPaymentCard'))}>
          {T.add}
        </Button>
      }
    >
      <Typography.Paragraph>{T.noPaymentCard}</Typography.Paragraph>
    </Modal>
  );
}
