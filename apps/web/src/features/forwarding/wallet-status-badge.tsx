import { Badge } from 'antd';

/** spec B §2: a token forwarding wallet's status, green when ENABLED and grey otherwise. */
export function WalletStatusBadge({ status }: { status: string }) {
  return <Badge status={status === 'ENABLED' ? 'success' : 'default'} text={status} />;
}
