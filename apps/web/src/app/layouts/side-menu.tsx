import {
  AppstoreOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  KeyOutlined,
  ReadOutlined,
  SettingOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { Menu, type MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { type AccountRoute, accountPath } from '../../config/paths';
import { Texts } from '../../lib/texts';
import './side-menu.css';

type MenuItem = NonNullable<MenuProps['items']>[number];

interface SideMenuProps {
  accountId: string;
  tokenForwardingEnabled: boolean;
  docsUrl: string | undefined;
}

const T = Texts.sideMenu;

/** Keys of the leaf entries that are routes, with the group keys above each one. */
function routeKeys(items: MenuItem[], parents: string[] = [], found = new Map<string, string[]>()) {
  for (const item of items) {
    if (!item || !('key' in item) || item.key === undefined) continue;
    const key = String(item.key);
    if ('children' in item && item.children) routeKeys(item.children, [...parents, key], found);
    else if (key.startsWith('/')) found.set(key, parents);
  }
  return found;
}

export function SideMenu({ accountId, tokenForwardingEnabled, docsUrl }: SideMenuProps) {
  const { pathname } = useLocation();
  const link = (route: AccountRoute, label: string, icon?: ReactNode): MenuItem => {
    const to = accountPath(accountId, route);
    return { key: to, icon, label: <Link to={to}>{label}</Link> };
  };

  const items: MenuItem[] = [
    link('overview', T.overview, <DashboardOutlined />),
    {
      key: 'services',
      icon: <AppstoreOutlined />,
      label: T.services,
      children: [
        link('services', T.overview),
        link('rpc', T.rpc),
        link('status', T.status),
        link('pricing', T.pricing),
        link('analytics', T.analytics),
        link('requests', T.requests),
        link('webhooks', T.webhooks),
        ...(tokenForwardingEnabled
          ? [
              {
                key: 'token-forwarding',
                label: T.tokenForwarding,
                children: [link('wallets', T.wallets), link('transactions', T.transactions)],
              },
            ]
          : []),
      ],
    },
    link('apiKeys', T.apiKeys, <KeyOutlined />),
    {
      key: 'billings',
      icon: <WalletOutlined />,
      label: T.billings,
      children: [
        link('billingsOverview', T.overview),
        link('buyCredits', T.buyCredits),
        link('addPaymentCard', T.addPaymentCards),
      ],
    },
    link('settings', T.settings, <SettingOutlined />),
    {
      key: 'documentation',
      icon: <ReadOutlined />,
      label: (
        <a href={docsUrl} target="_blank" rel="noopener noreferrer">
          {T.documentation}
        </a>
      ),
    },
    link('contactUs', T.contactUs, <CustomerServiceOutlined />),
  ];

  const keys = routeKeys(items);
  // The longest route key that the path starts with: wallets/create keeps Wallets selected.
  const selected = [...keys.keys()]
    .filter((key) => pathname === key || pathname.startsWith(`${key}/`))
    .sort((a, b) => b.length - a.length)[0];

  return (
    <Menu
      mode="inline"
      items={items}
      selectedKeys={selected ? [selected] : []}
      defaultOpenKeys={selected ? keys.get(selected) : []}
    />
  );
}
