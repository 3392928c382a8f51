import { Layout } from 'antd';
import { Link } from 'react-router-dom';
import { usePublicConfig } from '../../api/public-config';
import { paths } from '../../config/paths';
import { Texts } from '../../lib/texts';
import { useUserInfoLoader } from '../../session/use-user-info-loader';
import { UserMenu } from './user-menu';

export function AppHeader() {
  useUserInfoLoader();
  const productName = usePublicConfig()?.productName ?? Texts.productNameFallback;
  return (
    <Layout.Header className="app-header">
      <Link to={paths.accounts} className="app-header-title">
        {productName}
      </Link>
      <UserMenu />
    </Layout.Header>
  );
}
