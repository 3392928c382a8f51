import { Button, Modal } from 'antd';
import type { ReactNode } from 'react';

interface ConfirmRemovalModalProps {
  title: string;
  cancelText: string;
  removeText: string;
  /** True while the removal runs: the buttons and the close icon wait for it. */
  pending: boolean;
  onCancel: () => void;
  onRemove: () => void;
  children: ReactNode;
}

/** A removal that asks first (a card, a user): Cancel and a danger Remove, closed only by its buttons. */
export function ConfirmRemovalModal({
  title,
  cancelText,
  removeText,
  pending,
  onCancel,
  onRemove,
  children,
}: ConfirmRemovalModalProps) {
  return (
    <Modal
      open
      title={title}
      onCancel={onCancel}
      closable={!pending}
      maskClosable={false}
      footer={[
        <Button key="cancel" disabled={pending} onClick={onCancel}>
          {cancelText}
        </Button>,
        <Button key="remove" type="primary" danger disabled={pending} onClick={onRemove}>
          {removeText}
        </Button>,
      ]}
    >
      {children}
    </Modal>
  );
}
