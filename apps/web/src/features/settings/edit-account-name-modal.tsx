import { isValidAccountName, Messages } from '@ebs/contract';
import type { FormRule } from 'antd';
import { Button, Form, Input, Modal } from 'antd';
import { useId } from 'react';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useRenameAccount } from './settings-queries';

const T = Texts.settings;

interface EditAccountNameModalProps {
  accountId: string;
  currentName: string;
  onClose: () => void;
}

interface NameFields {
  accountName?: string;
}

/**
 * Edit Account Name (spec B §5): left empty, the current name stands; "Account name is required."
 * only when both are empty. A refused name keeps the dialog open to be corrected.
 */
export function EditAccountNameModal({ accountId, currentName, onClose }: EditAccountNameModalProps) {
  const formId = useId();
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

  const onFinish = ({ accountName }: NameFields) =>
    rename.mutate(chosen(accountName), { onSuccess: onClose, onError: (error) => toast.error(error) });

  return (
    <Modal
      open
      title={T.editAccountName}
      onCancel={onClose}
      closable={!rename.isPending}
      maskClosable={false}
      footer={[
        <Button key="cancel" disabled={rename.isPending} onClick={onClose}>
          {T.cancel}
        </Button>,
        <Button key="save" type="primary" htmlType="submit" form={formId} disabled={rename.isPending}>
          {T.save}
        </Button>,
      ]}
    >
      <Form<NameFields> id={formId} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item name="accountName" label={T.accountName} rules={rules} extra={Messages.accountNameHint}>
          <Input placeholder={currentName} maxLength={256} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
