import { isValidAccountName, Messages } from '@ebs/contract';
import type { FormRule } from 'antd';
import { NameModal } from '../../components/name-modal';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useRenameAccount } from './settings-queries';

const T = Texts.settings;

interface EditAccountNameModalProps {
  accountId: string;
  currentName: string;
  onClose: () => void;
}

/**
 * Edit Account Name (spec B §5): left empty, the current name stands; "Account name is required."
 * only when both are empty. A refused name keeps the dialog open to be corrected.
 */
export function EditAccountNameModal({ accountId, currentName, onClose }: EditAccountNameModalProps) {
  const rename = useRenameAccount(accountId);
  const chosen = (typed: string | undefined) => typed || currentName;

  const rules: FormRule[] = [
    {
      validator: (_rule, value: string | undefined) =>
        chosen(value) ? Promise.resolve() : Promise.reject(new Error(Messages.accountNameRequired)),
    },
    {
      validator: (_rule, value: string | undefined) =>
        !value || isValidAccountName(value)
          ? Promise.resolve()
          : Promise.reject(new Error(Messages.invalidAccountName)),
    },
  ];

  return (
    <NameModal
      title={T.editAccountName}
      label={T.accountName}
      fieldName="accountName"
      placeholder={currentName}
      extra={Messages.accountNameHint}
      rules={rules}
      maxLength={256}
      pending={rename.isPending}
      cancelText={T.cancel}
      submitText={T.save}
      onSubmit={(name) => rename.mutate(chosen(name), { onSuccess: onClose, onError: (error) => toast.error(error) })}
      onClose={onClose}
    />
  );
}
