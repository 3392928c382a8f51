import type { PaymentCard } from '@ebs/contract';
import { Button, Form, Modal, Select } from 'antd';
import { useId } from 'react';
import { maskedNumber } from '../../lib/card-display';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { expiryDefaults, monthOptions, yearOptions } from './card-expiry-options';
import { useUpdateCard } from './card-queries';

const T = Texts.cards;

interface EditCardDialogProps {
  accountId: string;
  card: PaymentCard;
  onClose: () => void;
}

interface ExpiryFields {
  month: number;
  year: number;
}

/** Edit Card (spec A §2, §5): a new expiry month and year; a failed update closes the dialog and shows the error. */
export function EditCardDialog({ accountId, card, onClose }: EditCardDialogProps) {
  const formId = useId();
  const update = useUpdateCard(accountId);

  const onFinish = ({ month, year }: ExpiryFields) =>
    update.mutate(
      { cardId: card.id, expireMonth: month, expireYear: year },
      { onSettled: onClose, onError: (error) => toast.error(error) },
    );

  return (
    <Modal
      open
      title={T.editCard}
      onCancel={onClose}
      closable={!update.isPending}
      maskClosable={false}
      footer={[
        <Button key="cancel" disabled={update.isPending} onClick={onClose}>
          {T.cancel}
        </Button>,
        <Button key="update" type="primary" htmlType="submit" form={formId} disabled={update.isPending}>
          {T.update}
        </Button>,
      ]}
    >
      <p>{maskedNumber(card.card.last4)}</p>
      <Form<ExpiryFields>
        id={formId}
        layout="inline"
        initialValues={expiryDefaults(card.card)}
        onFinish={onFinish}
        className="edit-card-form"
      >
        <Form.Item name="month" label={T.month}>
          <Select options={monthOptions} className="expiry-select" />
        </Form.Item>
        <Form.Item name="year" label={T.year}>
          <Select options={yearOptions} className="expiry-select" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
