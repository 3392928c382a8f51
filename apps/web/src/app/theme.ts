import type { ThemeConfig } from 'antd';
import { breakpoints } from '../lib/breakpoints';

export const theme: ThemeConfig = {
  token: {
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
  },
};
