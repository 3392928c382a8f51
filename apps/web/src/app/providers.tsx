import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { queryClient } from '../api/query-client';
import { ErrorBoundary } from './error-boundary';
import { theme } from './theme';
import { ToastHost } from './toast-host';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider theme={theme}>
      <ToastHost />
      <ErrorBoundary>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </ErrorBoundary>
    </ConfigProvider>
  );
}
