import { Space, Typography } from 'antd';
import { CopyButton } from './copy-button';

/** A value shown once (a key id, a key's secret): labelled, in code type, with its copy button. */
export function SecretValue({ label, value }: { label: string; value: string }) {
  return (
    <section className="detail-row" aria-label={label}>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <div className="detail-row-value">
        <Space wrap>
          <Typography.Text code>{value}</Typography.Text>
          <CopyButton text={value} size="small" />
        </Space>
      </div>
    </section>
  );
}
