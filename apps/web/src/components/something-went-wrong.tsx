import { Messages } from '@ebs/contract';
import { Result } from 'antd';

export function SomethingWentWrong() {
  return <Result status="error" title={Messages.somethingWentWrong} />;
}
