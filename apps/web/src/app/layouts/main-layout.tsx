import { Layout } from 'antd';
import { Outlet, useMatch } from 'react-router-dom';
import { paths } from '../../config/paths';
import { AppHeader } from './app-header';

/** Header above every signed-in page; account pages bring their own side menu and content area. */
export function MainLayout() {
  const inAccount = useMatch(`${paths.account}/*`) !== null;
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <AppHeader />
      {inAccount ? (
        <Outlet />
      ) : (
        <Layout.Content className="app-content">
          <Outlet />
        </Layout.Content>
      )}
    </Layout>
  );
}
