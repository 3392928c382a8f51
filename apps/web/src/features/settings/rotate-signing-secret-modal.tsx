import { Typography } from 'antd';
import { ConfirmRemovalModal } from '../../components/confirm-removal-modal';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useRotateSigningSecret } from './settings-queries';

const T = Texts.settings;

interface RotateSigningSecretModalProps {
  accountId: string;
  /** With the end of the overlap, or null when no secret was replaced. */
  onRotated: (previousSecretExpiresAt: string | null) => void;
  onClose: () => void;
}

/** Asks before rotating: every receiver of the account's webhooks has to take the new secret. */
export function RotateSigningSecretModal({ accountId, onRotated, onClose }: RotateSigningSecretModalProps) {
  const rotate = useRotateSigningSecret(accountId);

  const onRotate = () =>
    rotate.mutate(undefined, {
      onSuccess: (rotated) => onRotated(rotated.previousSecretExpiresAt),
      onError: (error) => toast.error(error),
      onSettled: onClose,
    });

  return (
    <ConfirmRemovalModal
      title={T.rotateSecretTitle}
      cancelText={T.cancel}
      removeText={T.rotate}
      pending={rotate.isPending}
      onCancel={onClose}
      onRemove={onRotate}
    >
      <Typography.Paragraph>{T.rotateSecretText}</Typography.Paragraph>
      <Typography.Paragraph>{T.rotateSecretAgain}</Typography.Paragraph>
    </ConfirmRemovalModal>
  );
}
