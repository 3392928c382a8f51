import { API_KEY_NAME_MAX, type ApiKey, isApiKeyNameGiven, Messages } from '@ebs/contract';
import { NameModal, requiredNameRule } from '../../components/name-modal';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useRenameApiKey } from './keys-queries';

const T = Texts.keys;

interface EditApiKeyModalProps {
  accountId: string;
  apiKey: ApiKey;
  onClose: () => void;
}

const rules = [requiredNameRule(Messages.apiKeyNameRequiredOnUpdate, isApiKeyNameGiven)];

/**
 * Edit API Key (spec A §2, §5): the field starts with the current name; emptied, it is refused with
 * the update's own text, two spaces and all. A refused rename keeps the dialog open.
 */
export function EditApiKeyModal({ accountId, apiKey, onClose }: EditApiKeyModalProps) {
  const rename = useRenameApiKey(accountId);

  return (
    <NameModal
      title={T.editApiKey}
      label={T.apiKeyName}
      fieldName="apiKeyName"
      initialName={apiKey.name}
      rules={rules}
      maxLength={API_KEY_NAME_MAX}
      pending={rename.isPending}
      cancelText={T.cancel}
      submitText={T.update}
      onSubmit={(name) =>
        rename.mutate(
          { apiKeyId: apiKey.id, apiKeyName: name.trim() },
          { onSuccess: onClose, onError: (error) => toast.error(error) },
        )
      }
      onClose={onClose}
    />
  );
}
