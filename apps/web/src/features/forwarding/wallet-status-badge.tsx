import { Badge } from 'antd';

/** spec B §2: a token forwarding wallet's status, green when ENABLED and grey otherwise. */
export function WalletStatusBadge({ status }: { status: string }) {
  // One piece in a narrow column: the dot never stays behind on a line of its own.
  return <Badge className="wallet-status-badge" status={status === 'ENABLED' ? 'success' : 'default'} text={status} />;
}
