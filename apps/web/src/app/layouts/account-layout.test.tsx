import { type AccountDetails, type ActiveAlert, endpoints, Messages } from '@ebs/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { getSession, setCurrentAccount } from '../../session/session-store';
import { on, serveEndpoints, setUpPageTests, wrapped } from '../../testing/page-test-kit';
import { AccountLayout } from './account-layout';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const account = (isBillingApiEnabled: boolean, roleName = 'OWNER'): AccountDetails => ({
  id: ACCOUNT,
  accountId: ACCOUNT,
  name: 'Ops',
  accountName: 'Ops',
  status: isBillingApiEnabled ? 'ACTIVE' : 'SUSPENDED',
  isBillingApiEnabled,
  roleName,
  createdAt: '2026-11-21T10:00:00.000Z',
  balance: isBillingApiEnabled ? 25 : 0,
  amountPending: 0,
  owner: { email: 'owner@example.com' },
  userRoles: [],
  setting: {
    autoDeposit: { autoDepositEnabled: false, minBalance: null, autoDepositAmount: null },
    spendingCap: { monthlyCapUsd: null, autoPayMonthlyMaxUsd: null },
  },
});

/** The layout over a page, with the stored current account as `stored` and the server answering `fresh`. */
function open(
  stored: boolean,
  fresh: () => boolean | Promise<boolean>,
  alerts: ActiveAlert[] = [],
  roleName = 'OWNER',
) {
  setCurrentAccount({ ...account(stored, roleName), cards: [], features: { tokenForwardingEnabled: false } });
  serveEndpoints(
    on(endpoints.accounts.details, () => Promise.resolve(fresh()).then((f) => wrapped(account(f, roleName)))),
    on(endpoints.accounts.activeAlerts, () => wrapped({ active: alerts })),
  );
  const router = createMemoryRouter(
    [{ path: '/account/:accountId', element: <AccountLayout />, children: [{ path: '*', element: <p>page</p> }] }],
    { initialEntries: [`/account/${ACCOUNT}/billings/overview`] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const bar = () => screen.queryByText(Messages.suspended, { exact: false });

setUpPageTests();
afterEach(() => setCurrentAccount(null));

describe('AccountLayout: the suspended bar follows the account', () => {
  it('hides the bar once fresh details show the account re-enabled by a deposit', async () => {
    // The details answer waits until the bar of the stored (suspended) account has shown: its code loads lazily.
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    open(false, async () => {
      await answered;
      return true;
    });
    expect(await screen.findByText(Messages.suspended, { exact: false })).toBeTruthy();
    answer();
    await waitFor(() => expect(bar()).toBeNull());
    expect(getSession().currentAccount).toMatchObject({ isBillingApiEnabled: true, status: 'ACTIVE', balance: 25 });
  });

  it('shows the bar once fresh details show the account suspended', async () => {
    open(true, () => false);
    expect(bar()).toBeNull();
    await waitFor(() => expect(bar()).toBeTruthy());
    expect(getSession().currentAccount?.status).toBe('SUSPENDED');
  });

  it('keeps the stored cards and features when the details refresh', async () => {
    open(false, () => true);
    await waitFor(() => expect(bar()).toBeNull());
    expect(getSession().currentAccount).toMatchObject({ cards: [], features: { tokenForwardingEnabled: false } });
  });
});

describe('AccountLayout: the alerts that hold', () => {
  it('tells of each alert that holds above the page, with a link to manage them', async () => {
    open(true, () => true, [
      {
        kind: 'LOW_CREDIT',
        subject: null,
        message: 'Available credit is 4.00 USD, below 5.00 USD.',
        since: '2026-11-26T10:00:00Z',
      },
    ]);
    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain('Available credit is 4.00 USD, below 5.00 USD.');
    expect(screen.getByRole('link', { name: 'Manage alerts' }).getAttribute('href')).toBe(
      `/account/${ACCOUNT}/settings`,
    );
  });

  it('tells a MEMBER of the alerts without offering Manage alerts, which only the owner can use', async () => {
    const low = {
      kind: 'LOW_CREDIT',
      subject: null,
      message: 'Available credit is 4.00 USD, below 5.00 USD.',
      since: '2026-11-26T10:00:00Z',
    } as const;
    open(true, () => true, [low], 'MEMBER');
    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain('Available credit is 4.00 USD, below 5.00 USD.');
    expect(screen.queryByRole('link', { name: 'Manage alerts' })).toBeNull();
  });
});
