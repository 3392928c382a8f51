import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../config/paths';
import { Texts } from '../../lib/texts';
import { useSession } from '../../session/session-store';
import { signOut } from '../../session/sign-out';

const SIGN_OUT = 'sign-out';

/** The header's user menu; the e-mail is hidden on mobile by CSS. */
export function UserMenu() {
  const navigate = useNavigate();
  const { user, authUser } = useSession();
  const email = user?.email ?? authUser?.email ?? '';

  const items: MenuProps['items'] = [
    { key: paths.accountsCreate, label: Texts.userMenu.createAccount },
    { key: paths.accounts, label: Texts.userMenu.myAccounts },
    { key: paths.changePassword, label: Texts.userMenu.changePassword },
    { key: paths.security, label: Texts.userMenu.security },
    ...(user?.ambassador ? [{ key: paths.ambassadorProgram, label: Texts.userMenu.ambassadorProgram }] : []),
    { type: 'divider' },
    { key: SIGN_OUT, label: Texts.userMenu.signOut },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === SIGN_OUT) void signOut();
    else navigate(key);
  };

  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
      <Button type="text" icon={<UserOutlined />}>
        <span className="app-header-email">{email}</span>
        <DownOutlined />
      </Button>
    </Dropdown>
  );
}
