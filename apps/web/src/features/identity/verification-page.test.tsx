import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage, setUpPageTests } from '../../testing/page-test-kit';
import { VerificationPage } from './verification-page';

setUpPageTests();

describe('VerificationPage', () => {
  it('names the e-mail the code went to, after the spec’s text', () => {
    renderPage('/sign-up', '/sign-up', <VerificationPage email="nora@example.com" />);
    expect(screen.getByText(/^A verification code has been sent to your email\./).textContent).toBe(
      'A verification code has been sent to your email. It went to nora@example.com.',
    );
    expect(screen.getByText('nora@example.com').tagName).toBe('STRONG');
  });
});
