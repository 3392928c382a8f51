import { type ApiKey, Messages } from '@ebs/contract';
import { Typography } from 'antd';
import { ConfirmRemovalModal } from '../../components/confirm-removal-modal';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useDeactivateApiKey, useDeleteApiKey } from './keys-queries';

const T = Texts.keys;

interface KeyConfirmationProps {
  accountId: string;
  apiKey: ApiKey;
  onClose: () => void;
}

/** spec A §4: Deactivate asks first, in the spec's words; a failure closes it and shows the error. */
export function DeactivateApiKeyModal({ accountId, apiKey, onClose }: KeyConfirmationProps) {
  const deactivate = useDeactivateApiKey(accountId);
  return (
    <ConfirmRemovalModal
      title={T.deactivateApiKey}
      cancelText={T.cancel}
      removeText={T.deactivate}
      pending={deactivate.isPending}
      onCancel={onClose}
      onRemove={() => deactivate.mutate(apiKey.id, { onSettled: onClose, onError: (error) => toast.error(error) })}
    >
      <Typography.Paragraph>{Messages.confirmDeactivateApiKey}</Typography.Paragraph>
      <Typography.Paragraph strong>{apiKey.name}</Typography.Paragraph>
    </ConfirmRemovalModal>
  );
}

/** spec A §4: Delete (offered only for an INACTIVE key) asks first, in the spec's words. */
export function DeleteApiKeyModal({ accountId, apiKey, onClose }: KeyConfirmationProps) {
  const remove = useDeleteApiKey(accountId);
  return (
    <ConfirmRemovalModal
      title={T.deleteApiKey}
      cancelText={T.cancel}
      removeText={T.delete}
      pending={remove.isPending}
      onCancel={onClose}
      onRemove={() => remove.mutate(apiKey.id, { onSettled: onClose, onError: (error) => toast.error(error) })}
    >
      <Typography.Paragraph>{Messages.confirmDeleteApiKey}</Typography.Paragraph>
      <Typography.Paragraph strong>{apiKey.name}</Typography.Paragraph>
    </ConfirmRemovalModal>
  );
}
