import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    // The client already renews tokens and retries once; a second layer of retries would only delay errors.
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
