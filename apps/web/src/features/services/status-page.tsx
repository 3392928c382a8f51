import type { RpcNetworkStatus } from '@ebs/contract';
import { Card, List, Typography } from 'antd';
import { LoadFailed } from '../../components/load-state';
import { networkName } from '../../lib/format';
import { Texts } from '../../lib/texts';
import { HourStrip } from './hour-strip';
import { NetworkStateTag } from './network-state-tag';
import { headText, lastDayText } from './network-status';
import { useNetworkStatus } from './status-queries';
import { StatusTexts as T } from './status-texts';
import './status.css';

/** One network: its name and state, its head, and its last 24 hours with their share in one line. */
function NetworkStatusRow({ status }: { status: RpcNetworkStatus }) {
  const name = networkName(status.network);
  return (
    <div className="network-status">
      <div className="network-status-name">
        <Typography.Title level={3}>{name}</Typography.Title>
        <NetworkStateTag state={status.status} />
      </div>
      <Typography.Text className="network-status-head">{headText(status)}</Typography.Text>
      <div className="network-status-day">
        <HourStrip lastDay={status.lastDay} label={T.lastDayOf(name)} />
        <Typography.Text type="secondary">{lastDayText(status.lastDay)}</Typography.Text>
      </div>
    </div>
  );
}

/**
 * /account/:accountId/services/status: every network's state and head as the gateway sees them,
 * and the share of its calls answered in each of the last 24 hours, refreshed while it shows.
 */
export function StatusPage() {
  const status = useNetworkStatus();
  // A failed refresh keeps the last answer on screen; only a page with nothing to show says it failed.
  const failed = status.isError && status.data === undefined;

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.status}</Typography.Title>
      </div>
      <Typography.Paragraph type="secondary">{T.intro}</Typography.Paragraph>
      <Card>
        {failed ? (
          <LoadFailed error={status.error} onRetry={() => void status.refetch()} retrying={status.isFetching} />
        ) : (
          <List
            loading={status.isPending}
            dataSource={status.data?.networks ?? []}
            rowKey="network"
            renderItem={(network) => (
              <List.Item>
                <NetworkStatusRow status={network} />
              </List.Item>
            )}
          />
        )}
      </Card>
    </>
  );
}
