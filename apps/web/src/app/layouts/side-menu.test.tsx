import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { polyfillMatchMedia } from '../../testing/page-test-kit';
import { SideMenu } from './side-menu';

const renderAt = (path: string, tokenForwardingEnabled: boolean) =>
  render(
    <MemoryRouter initialEntries={[path]}>
      <SideMenu accountId="a1" tokenForwardingEnabled={tokenForwardingEnabled} docsUrl="https://docs.example/" />
    </MemoryRouter>,
  );

beforeAll(() => {
  polyfillMatchMedia();
});

afterEach(cleanup);

describe('SideMenu', () => {
  it('selects the entry of the current path and opens its group', () => {
    renderAt('/account/a1/billings/buyCredits', false);

    const selected = document.querySelector('.ant-menu-item-selected');
    expect(selected?.textContent).toBe('Buy Credits');
  });

  it('keeps Wallets selected on the create-wallet page', () => {
    renderAt('/account/a1/services/token-forwarding/wallets/create', true);

    expect(document.querySelector('.ant-menu-item-selected')?.textContent).toBe('Wallets');
  });

  it('lists Token Forwarding only when the account has the feature', () => {
    renderAt('/account/a1/services/rpc', false);
    expect(screen.queryByText('Token Forwarding')).toBeNull();
    cleanup();

    renderAt('/account/a1/services/rpc', true);
    expect(screen.getByText('Token Forwarding')).toBeTruthy();
  });

  it('lists Status under Services, after RPC, and selects it on the Status page', () => {
    renderAt('/account/a1/services/status', false);

    const services = [...document.querySelectorAll('.ant-menu-sub .ant-menu-item')].map((item) => item.textContent);
    expect(services.slice(0, 5)).toEqual(['Overview', 'RPC', 'Status', 'Pricing', 'Analytics']);
    expect(screen.getByRole('link', { name: 'Status' }).getAttribute('href')).toBe('/account/a1/services/status');
    expect(document.querySelector('.ant-menu-item-selected')?.textContent).toBe('Status');
  });

  it('lists Pricing under Services, after Status, and selects it on the Pricing page', () => {
    renderAt('/account/a1/services/pricing', false);

    expect(screen.getByRole('link', { name: 'Pricing' }).getAttribute('href')).toBe('/account/a1/services/pricing');
    expect(document.querySelector('.ant-menu-item-selected')?.textContent).toBe('Pricing');
  });

  it('lists Webhooks under Services and keeps it selected on a webhook’s page', () => {
    renderAt('/account/a1/services/webhooks/0b7c4e1a-2f3d-4c5b-8a9e-1f2d3c4b5a6e', false);

    expect(screen.getByRole('link', { name: 'Webhooks' }).getAttribute('href')).toBe('/account/a1/services/webhooks');
    expect(document.querySelector('.ant-menu-item-selected')?.textContent).toBe('Webhooks');
  });

  it('opens Documentation in a new tab', () => {
    renderAt('/account/a1/overview', false);

    const docs = screen.getByRole('link', { name: 'Documentation' });
    expect(docs.getAttribute('href')).toBe('https://docs.example/');
    expect(docs.getAttribute('target')).toBe('_blank');
    expect(docs.getAttribute('rel')).toBe('noopener noreferrer');
  });
});
