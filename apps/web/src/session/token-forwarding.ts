import { endpoints } from '@ebs/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../api/client';
import { getSession, setCurrentAccount, useSession } from './session-store';

export const featureKey = (accountId: string) => ['account', accountId, 'feature', 'TOKEN_FORWARDING'] as const;

/**
 * Whether token forwarding is on for the account (spec B §6). The stored current account answers
 * at once; the feature is checked again because an operator turns it on outside the console, and a
 * changed answer is stored, so the side menu follows.
 */
export function useTokenForwardingEnabled(accountId: string): boolean {
  const { currentAccount } = useSession();
  const check = useQuery({
    queryKey: featureKey(accountId),
    queryFn: () =>
      api(endpoints.accounts.isFeatureEnabled, {
        query: { featureName: 'TOKEN_FORWARDING' },
        accountId,
      }),
    enabled: accountId !== '',
  });
  const checked = check.data?.result;

  useEffect(() => {
    const current = getSession().currentAccount;
    if (checked === undefined || current?.id !== accountId) return;
    if (current.features.tokenForwardingEnabled !== checked) {
      setCurrentAccount({ ...current, features: { ...current.features, tokenForwardingEnabled: checked } });
    }
  }, [accountId, checked]);

  const stored = currentAccount?.id === accountId ? currentAccount.features.tokenForwardingEnabled : false;
  return checked ?? stored;
}
