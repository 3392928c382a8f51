import { type ApiKey, KEY_ROLL_OVERLAPS, type KeyRollOverlap, type RolledApiKey } from '@ebs/contract';
import { Button, Form, Modal, Select, Typography } from 'antd';
import { useId, useState } from 'react';
import { toast } from '../../lib/toast';
import { KeySecurityTexts as T } from './key-security-texts';
import { useRollApiKey } from './keys-queries';

interface RollKeyDialogProps {
  accountId: string;
  apiKey: ApiKey;
  onRolled: (rolled: RolledApiKey) => void;
  onClose: () => void;
}

const OVERLAP_OPTIONS = KEY_ROLL_OVERLAPS.map((seconds) => ({ value: seconds, label: T.overlaps[seconds] }));

/** Asks how long the old secret stays valid, then makes the new one; a refusal keeps it open. */
export function RollKeyDialog({ accountId, apiKey, onRolled, onClose }: RollKeyDialogProps) {
  const roll = useRollApiKey(accountId, apiKey.id);
  // An hour by default: clients still holding the old secret keep working while they move.
  const [overlap, setOverlap] = useState<KeyRollOverlap>(3600);
  const selectId = useId();

  return (
    <Modal
      open
      title={T.rollApiKey}
      onCancel={onClose}
      closable={!roll.isPending}
      maskClosable={false}
      footer={[
        <Button key="cancel" disabled={roll.isPending} onClick={onClose}>
          {T.cancel}
        </Button>,
        <Button
          key="roll"
          type="primary"
          danger
          disabled={roll.isPending}
          onClick={() => roll.mutate(overlap, { onSuccess: onRolled, onError: (error) => toast.error(error) })}
        >
          {T.rollKey}
        </Button>,
      ]}
    >
      <Typography.Paragraph>{T.rollExplanation}</Typography.Paragraph>
      <Typography.Paragraph strong>{apiKey.name}</Typography.Paragraph>
      <Form layout="vertical" component="div">
        <Form.Item label={T.overlap} htmlFor={selectId}>
          <Select<KeyRollOverlap> id={selectId} value={overlap} onChange={setOverlap} options={OVERLAP_OPTIONS} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
