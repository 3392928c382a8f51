/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoginPage } from '../../features/identity/login-page';
import { serveEndpoints, setUpPageTests } from '../../testing/page-test-kit';
import { AuthLayout } from './auth-layout';

// Vitest hands style sheets to tests empty, so the test reads the file itself.
const styles = readFileSync(join(__dirname, '../styles.css'), 'utf8');

setUpPageTests();

let sheet: HTMLStyleElement;

beforeEach(() => {
  sheet = document.createElement('style');
  sheet.textContent = styles;
  document.head.append(sheet);
});

afterEach(() => {
  sheet.remove();
});

describe('the auth layout, spec B §9', () => {
  it('lays the Login / Sign up tab bar out 512 px wide', async () => {
    // No endpoint answers: the page shows without the public configuration.
    serveEndpoints();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/login']}>
          <Routes>
            <Route element={<AuthLayout />}>
              <Route path="/login" element={<LoginPage />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );

    const tabBar = await screen.findByRole('tablist');
    const column = tabBar.closest('.auth-form');
    expect(column).not.toBeNull();
    expect(getComputedStyle(column as Element).maxWidth).toBe('512px');
    expect(getComputedStyle(column as Element).width).toBe('100%');
    expect(getComputedStyle(tabBar).width).not.toMatch(/px$/);
  });
});
