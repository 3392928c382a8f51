import { endpoints, Messages } from '@ebs/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import { callsTo, on, serveEndpoints, setUpPageTests, wrapped } from '../../testing/page-test-kit';
import { ResetPasswordPage } from './reset-password-page';

setUpPageTests();

/** /reset-password with the e-mail passed along in navigation state, as the Forgot password page does. */
function openWithEmail(email: string) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[{ pathname: '/reset-password', state: { email } }]}>
        <Routes>
          <Route path="/reset-password" element={<ResetPasswordPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the Reset password page, spec B §2', () => {
  it('has a resend link that sends a new code to the e-mail passed along', async () => {
    const calls = serveEndpoints(
      on(endpoints.identity.forgotPassword, () =>
        wrapped({ CodeDeliveryDetails: { Destination: 'a***@e***.com', DeliveryMedium: 'EMAIL' } }),
      ),
    );
    openWithEmail('ann@example.com');

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Re-send code' }));
    });

    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.verificationCodeSent));
    expect(callsTo(calls, endpoints.identity.forgotPassword).map((call) => call.body)).toEqual([
      { email: 'ann@example.com' },
    ]);
  });
});
