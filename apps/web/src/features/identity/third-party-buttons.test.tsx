import { Messages, type PublicConfig } from '@ebs/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { message } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { publicConfigQuery } from '../../api/public-config';
import { polyfillMatchMedia } from '../../testing/page-test-kit';
import { ThirdPartyButtons } from './third-party-buttons';

const config = (appEnv: string): PublicConfig => ({
  appEnv,
  docsUrl: 'https://docs.example/',
  apiBase: '/api',
  productName: 'EBS',
});

function renderWithEnv(appEnv: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(publicConfigQuery.queryKey, config(appEnv));
  return render(
    <QueryClientProvider client={client}>
      <ThirdPartyButtons />
    </QueryClientProvider>,
  );
}

beforeAll(() => {
  polyfillMatchMedia();
});

afterEach(() => {
  cleanup();
  message.destroy();
  vi.unstubAllGlobals();
});

describe('ThirdPartyButtons', () => {
  it('offers Google and GitHub sign-in outside prod', () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);

    renderWithEnv('dev');

    expect(screen.getByRole('button', { name: /Sign in with Google/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Sign in with GitHub/ })).toBeTruthy();
    // The seeded config is used as it is: no request for it.
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('offers only Google sign-in in prod', () => {
    renderWithEnv('prod');

    expect(screen.getByRole('button', { name: /Sign in with Google/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Sign in with GitHub/ })).toBeNull();
    expect(screen.queryByText('Sign in with GitHub')).toBeNull();
  });

  it('tells the user the provider is not configured when Google is clicked', async () => {
    renderWithEnv('prod');

    fireEvent.click(screen.getByRole('button', { name: /Sign in with Google/ }));

    expect(await screen.findByText(Messages.providerNotConfigured)).toBeTruthy();
    expect(Messages.providerNotConfigured).toBe('This sign-in provider is not configured.');
  });

  it('tells the user the provider is not configured when GitHub is clicked', async () => {
    renderWithEnv('dev');

    fireEvent.click(screen.getByRole('button', { name: /Sign in with GitHub/ }));

    expect(await screen.findByText('This sign-in provider is not configured.')).toBeTruthy();
  });
});
