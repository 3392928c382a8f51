import { isValidEmail, MEMBER_ROLE, Messages } from '@ebs/contract';
import { Button, Form, Input, Modal, Tag, Typography } from 'antd';
import { useId } from 'react';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useAddUser } from './settings-queries';

const T = Texts.settings;

interface AddUserModalProps {
  accountId: string;
  onClose: () => void;
}

/**
 * Add User (spec B §5): the e-mail is trimmed as typed; a refusal keeps the dialog open. The dialog
 * names the role the person gets and that they join once they accept (docs/roles.md).
 */
export function AddUserModal({ accountId, onClose }: AddUserModalProps) {
  const formId = useId();
  const add = useAddUser(accountId);

  const onFinish = ({ email }: { email: string }) =>
    add.mutate(email, { onSuccess: onClose, onError: (error) => toast.error(error) });

  return (
    <Modal
      open
      title={T.addUser}
      onCancel={onClose}
      closable={!add.isPending}
      maskClosable={false}
      footer={[
        <Button key="cancel" disabled={add.isPending} onClick={onClose}>
          {T.cancel}
        </Button>,
        <Button key="add" type="primary" htmlType="submit" form={formId} disabled={add.isPending}>
          {T.add}
        </Button>,
      ]}
    >
      <Form<{ email: string }> id={formId} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item
          name="email"
          label={T.userEmail}
          normalize={(value: string | undefined) => value?.trim()}
          rules={[
            { required: true, message: Messages.userEmailRequired },
            {
              validator: (_rule, value: string | undefined) =>
                !value || isValidEmail(value) ? Promise.resolve() : Promise.reject(new Error(Messages.invalidEmail)),
            },
          ]}
        >
          <Input type="email" autoComplete="off" autoFocus />
        </Form.Item>
        <Form.Item label={T.role} extra={T.inviteRoleHelp}>
          <Tag>{MEMBER_ROLE}</Tag>
        </Form.Item>
        <Typography.Paragraph type="secondary">{T.inviteHowItWorks}</Typography.Paragraph>
      </Form>
    </Modal>
  );
}
