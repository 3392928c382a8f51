import { refreshIdToken } from '../api/client';
import { closeEarlyRequests } from '../api/early-requests';
import { publicConfigQuery } from '../api/public-config';
import { queryClient } from '../api/query-client';
import { startAnalytics } from './analytics';
import { linkApiToSession } from './api-link';
import { clearSession, markReady, restoreFromStorage } from './session-store';
import { startTokenRenewal } from './token-renewal';

let started: Promise<void> | null = null;

async function start() {
  linkApiToSession();
  restoreFromStorage();
  startTokenRenewal();
  const [refresh] = await Promise.allSettled([refreshIdToken(), queryClient.prefetchQuery(publicConfigQuery)]);
  closeEarlyRequests();
  startAnalytics(queryClient.getQueryData(publicConfigQuery.queryKey));
  if (refresh.status === 'fulfilled') {
    console.info('Signed-in session restored for', refresh.value.user.email);
  } else {
    clearSession();
  }
  markReady();
}

/** The start-up check (spec A §1, spec B §1); runs once however often it is called. */
export function startSession(): Promise<void> {
  started ??= start();
  return started;
}
