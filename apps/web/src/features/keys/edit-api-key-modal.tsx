import { API_KEY_NAME_MAX, type ApiKey, isApiKeyNameGiven, Messages } from '@ebs/contract';
import { Button, Form, Input, Modal } from 'antd';
import { useId } from 'react';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useRenameApiKey } from './keys-queries';

const T = Texts.keys;

interface EditApiKeyModalProps {
  accountId: string;
  apiKey: ApiKey;
  onClose: () => void;
}

interface NameFields {
  apiKeyName?: string;
}

/**
 * Edit API Key (spec A §2, §5): the field starts with the current name; emptied, it is refused with
 * the update's own text, two spaces and all. A refused rename keeps the dialog open.
 */
export function EditApiKeyModal({ accountId, apiKey, onClose }: EditApiKeyModalProps) {
  const formId = useId();
  const rename = useRenameApiKey(accountId);

  const onFinish = ({ apiKeyName }: NameFields) =>
    rename.mutate(
      { apiKeyId: apiKey.id, apiKeyName: (apiKeyName ?? '').trim() },
      { onSuccess: onClose, onError: (error) => toast.error(error) },
    );

  return (
    <Modal
      open
      title={T.editApiKey}
      onCancel={onClose}
      closable={!rename.isPending}
      maskClosable={false}
      footer={[
        <Button key="cancel" disabled={rename.isPending} onClick={onClose}>
          {T.cancel}
        </Button>,
        <Button key="update" type="primary" htmlType="submit" form={formId} disabled={rename.isPending}>
          {T.update}
        </Button>,
      ]}
    >
      <Form<NameFields>
        id={formId}
        layout="vertical"
        onFinish={onFinish}
        requiredMark={false}
        initialValues={{ apiKeyName: apiKey.name }}
      >
        <Form.Item
          name="apiKeyName"
          label={T.apiKeyName}
          rules={[
            {
              validator: (_rule, value: unknown) =>
                isApiKeyNameGiven(value)
                  ? Promise.resolve()
                  : Promise.reject(new Error(Messages.apiKeyNameRequiredOnUpdate)),
            },
          ]}
        >
          <Input maxLength={API_KEY_NAME_MAX} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
