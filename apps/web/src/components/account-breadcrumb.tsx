import { Breadcrumb } from 'antd';
import { Link } from 'react-router-dom';

interface AccountBreadcrumbProps {
  accountName: string;
  overviewPath: string;
  /** The current page, shown after the account name. */
  current?: string;
}

/** spec A §2: account pages start their breadcrumb with the account name, linking to its overview. */
export function AccountBreadcrumb({ accountName, overviewPath, current }: AccountBreadcrumbProps) {
  const items = [{ key: 'account', title: <Link to={overviewPath}>{accountName}</Link> }];
  if (current) items.push({ key: 'current', title: <span>{current}</span> });
  return <Breadcrumb className="account-breadcrumb" items={items} />;
}
