import { type Ambassador, endpoints, Messages } from '@ebs/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import {
  callsTo,
  failed,
  on,
  type Reply,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { AmbassadorPage } from './ambassador-page';

function open(reply: Reply<Ambassador>) {
  const calls = serveEndpoints(on(endpoints.ambassador.own, () => reply));
  renderPage('/ambassador-program', '/ambassador-program', <AmbassadorPage />);
  return calls;
}

const card = (title: string) =>
  screen.getByText(title, { selector: '.ant-card-head-title' }).closest('.ant-card') as HTMLElement;

describe('the Ambassador Program page', () => {
  setUpPageTests();

  it('shows the balance in USD, the code, the rate as a percent and the linked e-mails', async () => {
    const calls = open(
      wrapped({
        balance: 12.5,
        code: 'K7QX2M9A',
        rewardRate: 0.0725,
        linkedUsers: [{ email: 'first@example.com' }, { email: 'second@example.com' }],
      }),
    );
    expect(await screen.findByText('$12.50 USD')).toBeTruthy();
    expect(within(card('Ambassador code')).getByText('K7QX2M9A')).toBeTruthy();
    // rate × 100 without binary noise (0.0725 × 100 is 7.249999… in floating point)
    expect(within(card('Reward rate')).getByText('7.25%')).toBeTruthy();
    expect(within(card('Linked users')).getByText('first@example.com')).toBeTruthy();
    expect(within(card('Linked users')).getByText('second@example.com')).toBeTruthy();
    expect(within(card('Ambassador code')).getByRole('button', { name: 'Copy' })).toBeTruthy();
    // The card is the page's one call.
    expect(calls).toHaveLength(1);
    expect(callsTo(calls, endpoints.ambassador.own)).toHaveLength(1);
  });

  it('shows 000000 when the code is missing, and says what to do when no one is linked', async () => {
    open(wrapped({ balance: 0, code: null, rewardRate: 0.1, linkedUsers: [] }));
    expect(await screen.findByText('000000')).toBeTruthy();
    expect(within(card('Reward rate')).getByText('10%')).toBeTruthy();
    expect(within(card('Current balance')).getByText('$0.00 USD')).toBeTruthy();
    expect(screen.getByText('No one has signed up with your code yet.')).toBeTruthy();
    expect(within(card('Ambassador code')).queryByRole('button', { name: 'Copy' })).toBeNull();
  });

  it('sends a user who is not an ambassador to /accounts', async () => {
    open(failed(404, Messages.notAnAmbassador, 'Not Found'));
    expect(await screen.findByText('Elsewhere: /accounts')).toBeTruthy();
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('says so when the card cannot be loaded, staying on the page', async () => {
    open(failed(500, 'Something went wrong.', 'Internal Server Error'));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalled());
    expect(screen.getByText('Ambassador Program')).toBeTruthy();
  });
});
