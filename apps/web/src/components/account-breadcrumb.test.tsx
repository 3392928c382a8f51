import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { accountPath, accountRoutes } from '../config/paths';
import type { CrumbTrail } from '../lib/breadcrumb';
import { AccountBreadcrumb } from './account-breadcrumb';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';

/** The breadcrumb as the account layout draws it: the real route list and overview path. */
function show(trail?: CrumbTrail) {
  render(
    <MemoryRouter>
      <AccountBreadcrumb
        accountId={ACCOUNT}
        accountName="Ops"
        overviewPath={accountPath(ACCOUNT, 'overview')}
        validRoutes={Object.values(accountRoutes)}
        trail={trail}
      />
    </MemoryRouter>,
  );
  return screen.getByRole('navigation');
}

const hrefOf = (name: string) => screen.getByRole('link', { name }).getAttribute('href');
const isLink = (name: string) => screen.queryByRole('link', { name }) !== null;

afterEach(cleanup);

describe('AccountBreadcrumb', () => {
  it('starts with the current account name, linking to /account/{accountId}/overview', () => {
    const bar = show();
    expect(bar.textContent).toBe('Ops');
    expect(hrefOf('Ops')).toBe(`/account/${ACCOUNT}/overview`);
  });

  it('shows the sub item as text, then item links under it, then the current page as text', () => {
    const bar = show({ subItem: 'Billings', items: ['Overview'], current: 'Buy Credits' });
    expect(bar.textContent).toBe('Ops/Billings/Overview/Buy Credits');
    expect(isLink('Billings')).toBe(false);
    expect(hrefOf('Overview')).toBe(`/account/${ACCOUNT}/billings/overview`);
    expect(isLink('Buy Credits')).toBe(false);
  });

  it('links an item with no sub item to /account/{accountId}/{itemInCamelCase}', () => {
    const bar = show({ items: ['Services', 'API Keys'], current: 'RPC Service' });
    expect(bar.textContent).toBe('Ops/Services/API Keys/RPC Service');
    expect(hrefOf('Services')).toBe(`/account/${ACCOUNT}/services`);
    expect(hrefOf('API Keys')).toBe(`/account/${ACCOUNT}/apiKeys`);
    expect(isLink('RPC Service')).toBe(false);
  });

  it('shows an item as text when its camel-cased name is not a valid route', () => {
    const bar = show({ subItem: 'Billings', items: ['Add Payment Cards', 'Buy Credits'], current: 'Overview' });
    expect(bar.textContent).toBe('Ops/Billings/Add Payment Cards/Buy Credits/Overview');
    // The route is billings/addPaymentCard, singular: "Add Payment Cards" names no route.
    expect(isLink('Add Payment Cards')).toBe(false);
    expect(hrefOf('Buy Credits')).toBe(`/account/${ACCOUNT}/billings/buyCredits`);
  });

  it('shows a sub item alone, without items, before the current page', () => {
    const bar = show({ subItem: 'Billings', current: 'Overview' });
    expect(bar.textContent).toBe('Ops/Billings/Overview');
    expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual(['Ops']);
  });
});
