import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import { type ReactNode, useMemo } from 'react';
import { queryClient } from '../api/query-client';
import { theme } from '../config/theme';
import { useReducedMotion } from '../lib/reduced-motion';
import { ErrorBoundary } from './error-boundary';
import { ToastHost } from './toast-host';

export function Providers({ children }: { children: ReactNode }) {
  const reducedMotion = useReducedMotion();
  const shownTheme = useMemo(
    () => (reducedMotion ? { ...theme, token: { ...theme.token, motion: false } } : theme),
    [reducedMotion],
  );
  return (
    <ConfigProvider theme={shownTheme}>
      <ToastHost />
      <ErrorBoundary>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </ErrorBoundary>
    </ConfigProvider>
  );
}
