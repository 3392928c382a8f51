import { endpoints, Messages } from '@ebs/contract';
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, on, renderPage, serveEndpoints, setUpPageTests, wrapped } from '../../testing/page-test-kit';
import { SignUpForm } from './sign-up-form';

setUpPageTests();

const delivery = { CodeDeliveryDetails: { Destination: 'a***@e***.com', DeliveryMedium: 'EMAIL' } };

describe('the sign-up form, spec B §2 and §3', () => {
  it('sends the names, e-mail and password with a null bot-check token', async () => {
    const calls = serveEndpoints(
      on(endpoints.identity.signUp, () => wrapped({ userSub: 'u1', userConfirmed: false, ...delivery })),
    );
    renderPage('/sign-up', '/sign-up', <SignUpForm />);
    const type = (label: string, value: string) =>
      fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });
    type('First name', ' Ann ');
    type('Last name', 'Lee');
    type('Email', 'Ann@Example.com');
    type('Password', 'abcdefg1');
    type('Confirm password', 'abcdefg1');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    });

    await vi.waitFor(() => expect(callsTo(calls, endpoints.identity.signUp)).toHaveLength(1));
    expect(callsTo(calls, endpoints.identity.signUp)[0]?.body).toEqual({
      email: 'ann@example.com',
      password: 'abcdefg1',
      passwordConfirm: 'abcdefg1',
      givenName: 'Ann',
      familyName: 'Lee',
      botCheckToken: null,
    });
  });

  it('shows the password rule once: a weak password points to it instead of repeating it', async () => {
    serveEndpoints();
    renderPage('/sign-up', '/sign-up', <SignUpForm />);
    expect(screen.getAllByText(Messages.passwordPolicy)).toHaveLength(1);
    fireEvent.change(screen.getByLabelText('Password', { exact: true }), { target: { value: 'short' } });
    expect(await screen.findByText('This password does not follow the rule below.')).toBeTruthy();
    expect(screen.getAllByText(Messages.passwordPolicy)).toHaveLength(1);
  });
});
