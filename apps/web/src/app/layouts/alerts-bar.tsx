import type { ActiveAlert } from '@ebs/contract';
import { Alert } from 'antd';
import { Link } from 'react-router-dom';
import { Texts } from '../../lib/texts';
import { accountPath } from '../paths';

/** The account's alerts that hold now, above every account page until each clears. */
export function AlertsBar({ accountId, alerts }: { accountId: string; alerts: ActiveAlert[] }) {
  return (
    <Alert
      className="alerts-bar"
      type="warning"
      showIcon
      role="status"
      message={
        <span>
          {Texts.alerts.holding} <Link to={accountPath(accountId, 'settings')}>{Texts.alerts.manage}</Link>
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
