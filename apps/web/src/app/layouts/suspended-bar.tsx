import { InfoCircleOutlined } from '@ant-design/icons';
import { Messages } from '@ebs/contract';
import { Alert, Tooltip } from 'antd';
import { Link } from 'react-router-dom';
import { accountPath } from '../../config/paths';

/** spec B §2: shown on account pages while the account's billing API is disabled. */
export function SuspendedBar({ accountId }: { accountId: string }) {
  return (
    <Alert
      className="suspended-bar"
      type="warning"
      showIcon
      closable
      message={
        <span>
          {Messages.suspended} <Link to={accountPath(accountId, 'buyCredits')}>{Messages.clickToDeposit}</Link>{' '}
          <Tooltip title={Messages.suspendedTooltip}>
            <InfoCircleOutlined aria-label={Messages.suspendedTooltip} />
          </Tooltip>
        </span>
      }
    />
  );
}
