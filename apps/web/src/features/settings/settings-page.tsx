import { canManageAccount } from '@ebs/contract';
import { Typography } from 'antd';
import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { lazyDialog } from '../../components/lazy-dialog';
import { LoadFailed } from '../../components/load-state';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useAccountDetails } from '../../session/account-details';
import { useSession } from '../../session/session-store';
import { AccountAccess } from './account-access';
import { AccountInformation } from './account-information';
import { AlertsCard } from './alerts-card';

/** Shown to members who cannot manage the account only: its antd Alert loads when it first shows. */
const Alert = lazyDialog(() => import('antd/es/alert').then((m) => m.default));

/** /account/:accountId/settings (spec B §2): Account Information and Account Access; then the alerts (ours). */
export function SettingsPage() {
  const accountId = useParams().accountId ?? '';
  const { authUser, user } = useSession();
  const { data: account, error, refetch, isFetching } = useAccountDetails(accountId);

  useEffect(() => {
    if (error) toast.error(error);
  }, [error]);

  const canManage = canManageAccount(account?.roleName);
  const currentUserId = authUser?.sub ?? user?.id;

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.settings}</Typography.Title>
      </div>
      {account && !canManage && <Alert className="settings-card" type="info" message={Texts.settings.ownerOnlyHint} />}
      {/* Without the details the two sections would stay skeletons: say so instead, with a retry. */}
      {!account && error ? (
        <LoadFailed error={error} onRetry={() => void refetch()} retrying={isFetching} />
      ) : (
        <>
          <AccountInformation
            accountId={accountId}
            account={account}
            currentUserId={currentUserId}
            canManage={canManage}
          />
          <AccountAccess
            accountId={accountId}
            users={account?.userRoles}
            currentUserId={currentUserId}
            canManage={canManage}
          />
          <AlertsCard accountId={accountId} users={account?.userRoles} canManage={canManage} />
        </>
      )}
    </>
  );
}
