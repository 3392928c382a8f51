import type { AccountSummary } from '@ebs/contract';
import { Tag } from 'antd';

/** spec A §4: ACTIVE when the billing API is enabled, otherwise SUSPENDED. */
export function AccountStatusTag({ isBillingApiEnabled }: Pick<AccountSummary, 'isBillingApiEnabled'>) {
  const status: AccountSummary['status'] = isBillingApiEnabled ? 'ACTIVE' : 'SUSPENDED';
  return <Tag color={isBillingApiEnabled ? 'green' : 'red'}>{status}</Tag>;
}
