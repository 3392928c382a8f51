import { Messages, type UserRole } from '@ebs/contract';
import { Typography } from 'antd';
import { ConfirmRemovalModal } from '../../components/confirm-removal-modal';
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
    <ConfirmRemovalModal
      title={Messages.removeUserTitle}
      cancelText={T.cancel}
      removeText={T.remove}
      pending={remove.isPending}
      onCancel={onClose}
      onRemove={onRemove}
    >
      <Typography.Paragraph>{Messages.removeUserText}</Typography.Paragraph>
      <Typography.Paragraph strong>{user.email}</Typography.Paragraph>
    </ConfirmRemovalModal>
  );
}
