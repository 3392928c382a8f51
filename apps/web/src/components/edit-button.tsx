import { EditOutlined } from '@ant-design/icons';
import { Button } from 'antd';

/** The small pencil that opens an edit dialog; its label names what it edits, for screen readers. */
export function EditButton({ label, onClick, disabled }: { label: string; onClick: () => void; disabled?: boolean }) {
  return (
    <Button
      type="text"
      size="small"
      icon={<EditOutlined />}
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
    />
  );
}
