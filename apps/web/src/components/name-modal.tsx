import type { FormRule } from 'antd';
import { Button, Form, Input, Modal } from 'antd';
import type { ReactNode } from 'react';
import { useId } from 'react';

const isNonBlank = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';

/** The usual rule: a blank name is refused with the caller's own text (each spec words it differently). */
export const requiredNameRule = (message: string, isGiven: (value: unknown) => boolean = isNonBlank): FormRule => ({
  validator: (_rule, value: unknown) => (isGiven(value) ? Promise.resolve() : Promise.reject(new Error(message))),
});

interface NameModalProps {
  title: string;
  label: string;
  /** The form field's name; it also becomes the input's id, which the label points at. */
  fieldName: string;
  /** What the field starts with; left out, it starts empty. */
  initialName?: string;
  placeholder?: string;
  /** Help shown under the field. */
  extra?: ReactNode;
  /** Passed in whole: one dialog refuses only a blank name, another falls back to the current one first. */
  rules: FormRule[];
  maxLength: number;
  /** True while the save runs: the buttons and the close icon wait for it. */
  pending: boolean;
  cancelText: string;
  submitText: string;
  /** Gets the text as typed (untrimmed, '' when empty): whether to trim or fall back is the caller's call. */
  onSubmit: (name: string) => void;
  onClose: () => void;
}

/**
 * A one-field "edit a name" dialog. Closed only by Cancel or the close icon, never the mask, so a
 * refused name keeps it open to be corrected.
 */
export function NameModal({
  title,
  label,
  fieldName,
  initialName,
  placeholder,
  extra,
  rules,
  maxLength,
  pending,
  cancelText,
  submitText,
  onSubmit,
  onClose,
}: NameModalProps) {
  const formId = useId();

  return (
    <Modal
      open
      title={title}
      onCancel={onClose}
      closable={!pending}
      maskClosable={false}
      footer={[
        <Button key="cancel" disabled={pending} onClick={onClose}>
          {cancelText}
        </Button>,
        <Button key="submit" type="primary" htmlType="submit" form={formId} disabled={pending}>
          {submitText}
        </Button>,
      ]}
    >
      <Form<Record<string, string | undefined>>
        id={formId}
        layout="vertical"
        onFinish={(values) => onSubmit(values[fieldName] ?? '')}
        requiredMark={false}
        initialValues={initialName === undefined ? undefined : { [fieldName]: initialName }}
      >
        <Form.Item name={fieldName} label={label} rules={rules} extra={extra}>
          <Input placeholder={placeholder} maxLength={maxLength} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
