import { DISABLE_REASON_MAX, ForwardingMessages, type TokenForwardingWallet, WALLET_NAME_MAX } from '@ebs/contract';
import { Button, Form, Input, Modal, Typography } from 'antd';
import { useId } from 'react';
import { ConfirmRemovalModal } from '../../components/confirm-removal-modal';
import { NameModal, requiredNameRule } from '../../components/name-modal';
import { toast } from '../../lib/toast';
import {
  type NamedWallet,
  type SelectedWallet,
  useDeleteWallet,
  useDisableWallet,
  useRenameWallet,
} from './forwarding-mutations';
import { ForwardingTexts as T } from './forwarding-texts';

interface DialogProps {
  accountId: string;
  /** The action succeeded: the dialog and the drawer close. */
  onDone: () => void;
  onClose: () => void;
}

const updateNameRules = [requiredNameRule(ForwardingMessages.nameRequired)];

/** Update Name: starts with the current name; an empty one is refused with "Name is required.". */
export function UpdateNameModal({ accountId, named, onDone, onClose }: DialogProps & { named: NamedWallet }) {
  const rename = useRenameWallet(accountId);

  return (
    <NameModal
      title={T.updateName}
      label={T.name}
      fieldName="name"
      initialName={named.wallet.name}
      rules={updateNameRules}
      maxLength={WALLET_NAME_MAX}
      pending={rename.isPending}
      cancelText={T.cancel}
      submitText={T.update}
      onSubmit={(name) =>
        rename.mutate({ ...named, name: name.trim() }, { onSuccess: onDone, onError: (error) => toast.error(error) })
      }
      onClose={onClose}
    />
  );
}

/** spec B §4: Disable asks an optional free-text reason. */
export function DisableWalletModal({
  accountId,
  wallet,
  onDone,
  onClose,
}: DialogProps & { wallet: TokenForwardingWallet }) {
  const formId = useId();
  const disable = useDisableWallet(accountId);

  const onFinish = ({ reason }: { reason?: string }) =>
    disable.mutate({ wallet, reason: reason ?? '' }, { onSuccess: onDone, onError: (error) => toast.error(error) });

  return (
    <Modal
      open
      title={T.disableWallet}
      onCancel={onClose}
      closable={!disable.isPending}
      maskClosable={false}
      footer={[
        <Button key="cancel" disabled={disable.isPending} onClick={onClose}>
          {T.cancel}
        </Button>,
        <Button key="disable" type="primary" danger htmlType="submit" form={formId} disabled={disable.isPending}>
          {T.disableWallet}
        </Button>,
      ]}
    >
      <Typography.Paragraph strong>{wallet.publicAddress}</Typography.Paragraph>
      <Form id={formId} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item name="reason" label={T.reason}>
          <Input.TextArea rows={3} maxLength={DISABLE_REASON_MAX} placeholder={T.reasonPlaceholder} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}

const walletLabel = (selected: SelectedWallet) =>
  selected.kind === 'destination'
    ? `${selected.wallet.name} (${selected.wallet.destinationPublicAddress})`
    : selected.kind === 'gasFee'
      ? `${selected.wallet.name} (${selected.wallet.publicAddress})`
      : selected.wallet.publicAddress;

/** spec B §2: deleting asks first, with the spec's warning; a refusal closes it and shows the reason. */
export function DeleteWalletModal({
  accountId,
  selected,
  onDone,
  onClose,
}: DialogProps & { selected: SelectedWallet }) {
  const remove = useDeleteWallet(accountId);
  return (
    <ConfirmRemovalModal
      title={T.deleteWallet}
      cancelText={T.cancel}
      removeText={T.delete}
      pending={remove.isPending}
      onCancel={onClose}
      onRemove={() =>
        remove.mutate(selected, {
          onSuccess: onDone,
          onError: (error) => {
            toast.error(error);
            onClose();
          },
        })
      }
    >
      <Typography.Paragraph>{T.deleteQuestion}</Typography.Paragraph>
      <Typography.Paragraph strong>{walletLabel(selected)}</Typography.Paragraph>
      <Typography.Paragraph type="danger">{ForwardingMessages.deleteWarning}</Typography.Paragraph>
    </ConfirmRemovalModal>
  );
}
