import { Breadcrumb } from 'antd';
import { Link } from 'react-router-dom';
import { breadcrumbTrail, type CrumbTrail } from '../lib/breadcrumb';

interface AccountBreadcrumbProps {
  accountId: string;
  accountName: string;
  overviewPath: string;
  validRoutes: readonly string[];
  trail?: CrumbTrail;
}

/** spec A §2: the account name (linking to its overview), then sub item, item links and the current page. */
export function AccountBreadcrumb({
  accountId,
  accountName,
  overviewPath,
  validRoutes,
  trail,
}: AccountBreadcrumbProps) {
  const items = [
    { key: 'account', title: <Link to={overviewPath}>{accountName}</Link> },
    ...breadcrumbTrail(accountId, validRoutes, trail ?? {}).map((crumb, i) => ({
      key: `${i}-${crumb.title}`,
      title: crumb.href ? <Link to={crumb.href}>{crumb.title}</Link> : <span>{crumb.title}</span>,
    })),
  ];
  return <Breadcrumb className="account-breadcrumb" items={items} />;
}
