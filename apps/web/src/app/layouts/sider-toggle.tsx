import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Texts } from '../../lib/texts';

/**
 * The side menu's collapse control: a button named for what it does, reached by Tab. antd puts it
 * in the sider's trigger bar, whose click (this button's, bubbling up) toggles the sider.
 */
export function SiderToggle({ collapsed }: { collapsed: boolean }) {
  const name = collapsed ? Texts.sideMenu.expand : Texts.sideMenu.collapse;
  return (
    <button type="button" className="sider-toggle" aria-label={name} title={name} aria-expanded={!collapsed}>
      {collapsed ? <RightOutlined aria-hidden /> : <LeftOutlined aria-hidden />}
    </button>
  );
}
