import { canManageAccount, shortenAccountId } from '@ebs/contract';
import { Grid, Layout } from 'antd';
import { useEffect, useState } from 'react';
import { Outlet, useLocation, useMatches, useParams } from 'react-router-dom';
import { usePublicConfig } from '../../api/public-config';
import { AccountBreadcrumb } from '../../components/account-breadcrumb';
import { lazyDialog } from '../../components/lazy-dialog';
import { accountPath, accountRoutes } from '../../config/paths';
import { toast } from '../../lib/toast';
import { useActiveAlerts } from '../../session/account-alerts';
import { useAccountDetails } from '../../session/account-details';
import { loadAccount } from '../../session/load-account';
import { useSession } from '../../session/session-store';
import { useTokenForwardingEnabled } from '../../session/token-forwarding';
import type { RouteHandle } from '../routes';
import { SideMenu } from './side-menu';
import { SiderToggle } from './sider-toggle';

/** Shown only for a suspended account: its antd Alert stays out of every account page's first download. */
const SuspendedBar = lazyDialog(() => import('./suspended-bar').then((m) => m.SuspendedBar));
/** Shown only while an alert holds, likewise. */
const AlertsBar = lazyDialog(() => import('./alerts-bar').then((m) => m.AlertsBar));

const validRoutes = Object.values(accountRoutes);

function useCrumb() {
  const crumbs = useMatches().map((match) => (match.handle as RouteHandle | undefined)?.crumb);
  return crumbs.filter((crumb) => crumb !== undefined).pop();
}

/** Account pages: side menu, breadcrumb, suspended bar, alerts, then the page. */
export function AccountLayout() {
  const accountId = useParams().accountId ?? '';
  const { currentAccount } = useSession();
  const docsUrl = usePublicConfig()?.docsUrl;
  const crumb = useCrumb();
  const account = currentAccount?.id === accountId ? currentAccount : null;
  // Re-read while the account is open: a deposit or usage changes its status without a reload.
  useAccountDetails(account ? accountId : '', { poll: true });
  // The feature is turned on by an operator: checked on every account page, not only when chosen.
  const tokenForwardingEnabled = useTokenForwardingEnabled(account ? accountId : '');
  const alerts = useActiveAlerts(account ? accountId : '');
  // Narrow windows start collapsed (the breakpoint reports it); the toggle's name follows.
  const [collapsed, setCollapsed] = useState(false);
  const phone = Grid.useBreakpoint().md === false;
  const { pathname } = useLocation();

  // On a phone the opened menu lies over the page: going to a page closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger, not a value read
  useEffect(() => {
    if (phone) setCollapsed(true);
  }, [pathname]);

  // An account opened by URL (not from the list) still becomes the current account.
  useEffect(() => {
    if (accountId && currentAccount?.id !== accountId) loadAccount(accountId).catch(toast.error);
  }, [accountId, currentAccount?.id]);

  return (
    <Layout>
      <Layout.Sider
        className="account-sider"
        theme="light"
        collapsible
        collapsed={collapsed}
        onCollapse={setCollapsed}
        trigger={<SiderToggle collapsed={collapsed} />}
        collapsedWidth={40}
        width={200}
        breakpoint="md"
      >
        <SideMenu accountId={accountId} tokenForwardingEnabled={tokenForwardingEnabled} docsUrl={docsUrl} />
      </Layout.Sider>
      <Layout.Content className="app-content account-main">
        <AccountBreadcrumb
          accountId={accountId}
          accountName={account?.name ?? shortenAccountId(accountId)}
          overviewPath={accountPath(accountId, 'overview')}
          validRoutes={validRoutes}
          trail={crumb}
        />
        {account && !account.isBillingApiEnabled && <SuspendedBar key={accountId} accountId={accountId} />}
        {alerts.length > 0 && (
          <AlertsBar accountId={accountId} alerts={alerts} canManage={canManageAccount(account?.roleName)} />
        )}
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}
