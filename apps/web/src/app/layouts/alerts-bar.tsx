import type { ActiveAlert } from '@ebs/contract';
import { Alert } from 'antd';
import { Link } from 'react-router-dom';
import { accountPath } from '../../config/paths';
import { Texts } from '../../lib/texts';

/**
 * The account's alerts that hold now, above every account page until each clears. Only the owner
 * can change them (docs/roles.md): a member is not offered Manage alerts.
 */
export function AlertsBar({
  accountId,
  alerts,
  canManage,
}: {
  accountId: string;
  alerts: ActiveAlert[];
  canManage: boolean;
}) {
  return (
    <Alert
      className="alerts-bar"
      type="warning"
      showIcon
      role="status"
      message={
        <span>
          {Texts.alerts.holding}{' '}
          {canManage && <Link to={accountPath(accountId, 'settings')}>{Texts.alerts.manage}</Link>}
        </span>
      }
      description={
        <ul className="alerts-bar-list">
          {alerts.map((alert) => (
            <li key={`${alert.kind} ${alert.subject ?? ''}`}>{alert.message}</li>
          ))}
        </ul>
      }
    />
  );
}
