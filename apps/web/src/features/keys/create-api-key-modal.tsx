import { API_KEY_NAME_MAX, type CreatedApiKey, isApiKeyNameGiven, Messages } from '@ebs/contract';
import { Button, Form, Input, Modal } from 'antd';
import { useId } from 'react';
import { useCreateApiKey } from '../../api/keys-queries';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';

const T = Texts.keys;

interface CreateApiKeyModalProps {
  accountId: string;
  onCreated: (created: CreatedApiKey) => void;
  onClose: () => void;
}

interface NameFields {
  apiKeyName?: string;
}

/** The create modal (spec A §2): asks for the key name; a refused create keeps it open. */
export function CreateApiKeyModal({ accountId, onCreated, onClose }: CreateApiKeyModalProps) {
  const formId = useId();
  const create = useCreateApiKey(accountId);

  const onFinish = ({ apiKeyName }: NameFields) =>
    create.mutate((apiKeyName ?? '').trim(), { onSuccess: onCreated, onError: (error) => toast.error(error) });

  return (
    <Modal
      open
      title={T.createApiKey}
      onCancel={onClose}
      closable={!create.isPending}
      maskClosable={false}
      footer={[
        <Button key="cancel" disabled={create.isPending} onClick={onClose}>
          {T.cancel}
        </Button>,
        <Button key="create" type="primary" htmlType="submit" form={formId} disabled={create.isPending}>
          {T.create}
        </Button>,
      ]}
    >
      <Form<NameFields> id={formId} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item
          name="apiKeyName"
          label={T.apiKeyName}
          rules={[
            {
              validator: (_rule, value: unknown) =>
                isApiKeyNameGiven(value) ? Promise.resolve() : Promise.reject(new Error(Messages.apiKeyNameRequired)),
            },
          ]}
        >
          <Input placeholder={T.namePlaceholder} maxLength={API_KEY_NAME_MAX} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
