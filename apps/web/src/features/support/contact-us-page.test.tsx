import { endpoints, Messages, type SupportTicket } from '@ebs/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toast } from '../../lib/toast';
import { clearSession, setAuthSession, setCurrentAccount } from '../../session/session-store';
import { accountDetails, TEST_ACCOUNT_ID } from '../../testing/account-details';
import {
  callsTo,
  type FetchCall,
  failed,
  on,
  type Reply,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { ContactUsPage } from './contact-us-page';

const ACCOUNT = TEST_ACCOUNT_ID;
const details = accountDetails({ name: 'Ops team', accountName: 'Ops team' });
const { contact } = endpoints.support;

function open(reply: () => Reply<SupportTicket>, query = '') {
  const calls = serveEndpoints(on(contact, reply));
  renderPage(`/account/${ACCOUNT}/contactUs${query}`, '/account/:accountId/contactUs', <ContactUsPage />);
  return calls;
}

const messageField = () => screen.getByLabelText('Message') as HTMLTextAreaElement;

function send(message: string) {
  fireEvent.change(messageField(), { target: { value: message } });
  fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
}

const posts = (calls: FetchCall[]) => callsTo(calls, contact);

setUpPageTests();
beforeEach(() => {
  setAuthSession({
    idToken: 'id-token-1',
    expiresIn: 3600,
    user: { sub: 'u1', email: 'jo@example.com', givenName: 'Jo', familyName: 'Urney' },
  });
  setCurrentAccount({ ...details, cards: [], features: { tokenForwardingEnabled: false } });
});
afterEach(clearSession);

describe('ContactUsPage', () => {
  it('shows the current account by name and id in a disabled field', () => {
    open(() => wrapped({ ticketId: 't1' }));

    const account = screen.getByLabelText('Account') as HTMLTextAreaElement;
    expect(account.disabled).toBe(true);
    expect(account.value).toBe(`Ops team (${ACCOUNT})`);
  });

  it.each([
    ['9 characters', '012345678'],
    ['only spaces', ' '.repeat(12)],
    ['an empty message', ''],
  ])('refuses %s with the spec text and posts nothing', async (_case, message) => {
    const calls = open(() => wrapped({ ticketId: 't1' }));

    send(message);

    expect(
      await screen.findByText('Your message is too short, please describe the issue in more detail.'),
    ).toBeTruthy();
    expect(posts(calls)).toHaveLength(0);
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('posts the message for the account, thanks the user and clears the field', async () => {
    const calls = open(() => wrapped({ ticketId: 't1' }, Messages.contactReceived));

    send('The RPC endpoint answers 502.');

    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('We received your message, we will get back to you soon.'),
    );
    const sent = posts(calls);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({ message: 'The RPC endpoint answers 502.' });
    expect(sent[0]?.headers['ebs-account-id']).toBe(ACCOUNT);
    expect(sent[0]?.headers.authorization).toBe('Bearer id-token-1');
    await waitFor(() => expect(messageField().value).toBe(''));
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('starts with the message a page that sent the user here wrote, and clears it once sent', async () => {
    const calls = open(
      () => wrapped({ ticketId: 't1' }, Messages.contactReceived),
      `?${new URLSearchParams({ message: 'Please turn on Token Forwarding for this account.' })}`,
    );
    expect(messageField().value).toBe('Please turn on Token Forwarding for this account.');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]?.body).toEqual({ message: 'Please turn on Token Forwarding for this account.' });
    await waitFor(() => expect(messageField().value).toBe(''));
  });

  it('shows the spec failure text, not the server message, and keeps the message', async () => {
    open(() => failed(500, 'Internal server error', 'Internal Server Error'));

    send('The RPC endpoint answers 502.');

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to submit, please try again later.'));
    expect(toast.success).not.toHaveBeenCalled();
    expect(messageField().value).toBe('The RPC endpoint answers 502.');
  });
});
