import { Result } from 'antd';
import { Texts } from '../lib/texts';

/** Stands in for a screen that a later issue builds. */
export function NotYetPage({ title }: { title: string }) {
  return <Result status="info" title={title} subTitle={Texts.notAvailableYet} />;
}
