import { type AccountList, endpoints, HIDDEN_ACCOUNT_NAME } from '@ebs/contract';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { on, type Reply, renderPage, serveEndpoints, setUpPageTests, wrapped } from '../../testing/page-test-kit';
import { AccountsPage } from './accounts-page';

const HINT = 'No accounts yet. Create one with Create new account.';
const ID = '11111111-1111-4111-8111-111111111111';

const listOf = (names: string[]): AccountList => ({
  accounts: names.map((name) => ({
    id: ID,
    accountId: ID,
    name,
    accountName: name,
    status: 'ACTIVE',
    isBillingApiEnabled: true,
    roleName: 'OWNER',
    createdAt: '2026-11-21T12:00:00.000Z',
  })),
  offset: 0,
  limit: 100,
  total: names.length,
  count: names.length,
});

const placeholder = () => document.querySelector('.ant-table-placeholder');

setUpPageTests();

describe('AccountsPage: loading and empty states', () => {
  it('shows a blank while the accounts load, then says how to create the first one', async () => {
    let answer: (reply: Reply<AccountList>) => void = () => {};
    serveEndpoints(on(endpoints.accounts.list, () => new Promise<Reply<AccountList>>((resolve) => (answer = resolve))));
    renderPage('/accounts', '/accounts', <AccountsPage />);

    await vi.waitFor(() => expect(placeholder()).not.toBeNull());
    expect(placeholder()?.textContent).toBe('');

    // The account being set up is hidden: a list of only that one is an empty list.
    answer(wrapped(listOf([HIDDEN_ACCOUNT_NAME])));
    expect(await screen.findByText(HINT)).toBeTruthy();
    // A new user is led to create one: the welcome's button opens the wizard.
    expect(await screen.findByText('Welcome! Start with an account.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create your first account' }));
    expect(await screen.findByText('Elsewhere: /accounts/create')).toBeTruthy();
  });

  it('has no welcome once the user has an account', async () => {
    serveEndpoints(on(endpoints.accounts.list, () => wrapped(listOf(['Main net']))));
    renderPage('/accounts', '/accounts', <AccountsPage />);
    expect(await screen.findByText('Main net')).toBeTruthy();
    expect(screen.queryByText('Welcome! Start with an account.')).toBeNull();
  });
});
