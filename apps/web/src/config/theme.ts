import type { ThemeConfig } from 'antd';
import { breakpoints } from '../lib/breakpoints';

// WCAG AA asks 4.5:1 for body text. antd's default blue (#1677ff) gives 4.1:1 as link or tab text on
// white and under white button text; its own blue-7 passes everywhere the console uses it.
const primary = '#0958d9';
// antd lightens the primary for hover (#2e7ae6, 4.2:1 under white button text and as link text on
// white): a button or link under the pointer keeps 5.2:1 with a lighter shade of its own.
const primaryHover = '#1f67de';
// The same for antd's other defaults the console shows as text (docs/decisions.md, "Accessibility"):
// 45 % black for descriptions and hints is 3.4:1 on white and 3.3:1 on the layout's grey, 58 % gives
// 5.3:1 and 5.2:1; the error red #ff4d4f is 3.3:1 as danger-button text, its red-7 is 5.6:1.
const description = 'rgba(0, 0, 0, 0.58)';
const error = '#cf1322';

export const theme: ThemeConfig = {
  token: {
    colorPrimary: primary,
    colorPrimaryHover: primaryHover,
    colorLink: primary,
    colorLinkHover: primaryHover,
    colorInfo: primary,
    colorError: error,
    colorTextDescription: description,
    colorTextTertiary: description,
    screenXS: breakpoints.xs,
    screenXSMin: breakpoints.xs,
    screenXSMax: breakpoints.sm - 1,
    screenSM: breakpoints.sm,
    screenSMMin: breakpoints.sm,
    screenSMMax: breakpoints.md - 1,
    screenMD: breakpoints.md,
    screenMDMin: breakpoints.md,
    screenMDMax: breakpoints.lg - 1,
    screenLG: breakpoints.lg,
    screenLGMin: breakpoints.lg,
    screenLGMax: breakpoints.xl - 1,
    screenXL: breakpoints.xl,
    screenXLMin: breakpoints.xl,
    screenXLMax: breakpoints.xxl - 1,
    screenXXL: breakpoints.xxl,
    screenXXLMin: breakpoints.xxl,
  },
  components: {
    Layout: {
      headerHeight: 64,
      headerBg: '#ffffff',
      headerPadding: '0 24px',
      siderBg: '#ffffff',
      lightTriggerBg: '#fafafa',
    },
    // The side menu collapses to 40 px (spec B §2), narrower than antd's 80 px default.
    Menu: { collapsedWidth: 40 },
    // A list's empty text is information, not a disabled control: antd draws it in 25 % black (1.8:1).
    List: { colorTextDisabled: description },
    // antd's 45 % black gives 3.3:1 on the layout's grey background.
    Breadcrumb: { itemColor: 'rgba(0, 0, 0, 0.65)', linkColor: 'rgba(0, 0, 0, 0.65)' },
  },
};
