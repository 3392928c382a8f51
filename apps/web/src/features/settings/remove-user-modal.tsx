import { Messages, type UserRole } from '@ebs/contract';
import { Button, Modal, Typography } from 'antd';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useRemoveUser } from './settings-queries';

const T = Texts.settings;

interface RemoveUserModalProps {
  accountId: string;
  user: UserRole;
  onClose: () => void;
}

/** The Remove confirmation (spec B §8), worded as the spec words it. */
export function RemoveUserModal({ accountId, user, onClose }: RemoveUserModalProps) {
  const remove = useRemoveUser(accountId);

  const onRemove = () => remove.mutate(user.id, { onSettled: onClose, onError: (error) => toast.error(error) });

  return (
    <Modal
      open
      title={Messages.removeUserTitle}
      onCancel={onClose}
      closable={!remove.isPending}
      maskClosable={false}
      footer={[
        <Button key="cancel" disabled={remove.isPending} onClick={onClose}>
          {T.cancel}
        </Button>,
        <Button key="remove" type="primary" danger disabled={remove.isPending} onClick={onRemove}>
          {T.remove}
        </Button>,
      ]}
    >
      <Typography.Paragraph>{Messages.removeUserText}</Typography.Paragraph>
      <Typography.Paragraph strong>{user.email}</Typography.Paragraph>
    </Modal>
  );
}
