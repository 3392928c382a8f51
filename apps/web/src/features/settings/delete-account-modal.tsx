import { Messages } from '@ebs/contract';
import { Button, Modal, Typography } from 'antd';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';

const T = Texts.settings;

/**
 * spec B §2, §8: a delete-account confirmation exists, is never opened from the Settings page, and
 * its success text shows without any call to the server. Kept as the spec describes it.
 */
export function DeleteAccountModal({ onClose }: { onClose: () => void }) {
  const onDelete = () => {
    toast.success(Messages.accountDeleted);
    onClose();
  };
  return (
    <Modal
      open
      title={T.deleteAccount}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {T.cancel}
        </Button>,
        <Button key="delete" type="primary" danger onClick={onDelete}>
          {T.delete}
        </Button>,
      ]}
    >
      <Typography.Paragraph>{T.deleteAccountQuestion}</Typography.Paragraph>
    </Modal>
  );
}
