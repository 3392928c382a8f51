import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage, setUpPageTests } from '../../testing/page-test-kit';
import { ForgotPasswordPage } from './forgot-password-page';

setUpPageTests();

describe('the Forgot password page, spec B §2', () => {
  it('has a Back to login link that goes to /login', async () => {
    renderPage('/forgot-password', '/forgot-password', <ForgotPasswordPage />);
    const back = screen.getByRole('link', { name: 'Back to login' });
    expect(back.getAttribute('href')).toBe('/login');

    fireEvent.click(back);
    expect(await screen.findByText('Elsewhere: /login')).toBeTruthy();
  });
});
