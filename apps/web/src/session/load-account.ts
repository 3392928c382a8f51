import { endpoints } from '@ebs/contract';
import { api } from '../api/client';
import { queryClient } from '../api/query-client';
import { accountDetailsQuery } from './account-details';
import { type CurrentAccount, setCurrentAccount } from './session-store';

/** Loads an account by id and makes it current: details, then cards, then the TOKEN_FORWARDING check. */
export async function loadAccount(accountId: string): Promise<CurrentAccount> {
  const details = await queryClient.fetchQuery(accountDetailsQuery(accountId));
  const cards = await api(endpoints.cards.list, { accountId });
  const feature = await api(endpoints.accounts.isFeatureEnabled, {
    query: { featureName: 'TOKEN_FORWARDING' },
    accountId,
  });
  const account: CurrentAccount = { ...details, cards, features: { tokenForwardingEnabled: feature.result } };
  setCurrentAccount(account);
  return account;
}
