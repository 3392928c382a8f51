import { Spin } from 'antd';
import { Texts } from '../lib/texts';

export function FullPageSpinner() {
  return (
    <div className="full-page-center" role="status" aria-label={Texts.loading}>
      <Spin size="large" />
    </div>
  );
}
