import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import { renderPage, setUpPageTests } from '../../testing/page-test-kit';
import { ForgotPasswordPage } from './forgot-password-page';

vi.mock('../../lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

setUpPageTests(toast);

describe('the Forgot password page, spec B §2', () => {
  it('has a Back to login link that goes to /login', async () => {
    renderPage('/forgot-password', '/forgot-password', <ForgotPasswordPage />);
    const back = screen.getByRole('link', { name: 'Back to login' });
    expect(back.getAttribute('href')).toBe('/login');

    fireEvent.click(back);
    expect(await screen.findByText('Elsewhere: /login')).toBeTruthy();
  });
});
