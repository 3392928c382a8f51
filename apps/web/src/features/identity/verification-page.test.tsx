import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { VerificationPage } from './verification-page';

describe('VerificationPage', () => {
  it('names the e-mail the code went to, after the spec’s text', () => {
    const router = createMemoryRouter([{ path: '/', element: <VerificationPage email="nora@example.com" /> }]);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    expect(screen.getByText(/^A verification code has been sent to your email\./).textContent).toBe(
      'A verification code has been sent to your email. It went to nora@example.com.',
    );
    expect(screen.getByText('nora@example.com').tagName).toBe('STRONG');
  });
});
