import { type AccountDetails, endpoints, Messages } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { toast } from '../../lib/toast';
import { clearSession, setAuthSession } from '../../session/session-store';
import { accountDetails, TEST_ACCOUNT_ID } from '../../testing/account-details';
import { stubClipboard } from '../../testing/clipboard';
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
import { SettingsPage } from './settings-page';

const ACCOUNT = TEST_ACCOUNT_ID;
const ME = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

const details = accountDetails({
  userRoles: [{ id: ME, email: 'owner@example.com', firstName: 'Ann', lastName: 'Owner', roleName: 'OWNER' }],
});

function open(answerDetails: () => Reply<AccountDetails>) {
  setAuthSession({
    idToken: 't',
    expiresIn: 3600,
    user: { sub: ME, email: 'owner@example.com', givenName: 'A', familyName: 'O' },
  });
  const calls = serveEndpoints(
    on(endpoints.accounts.details, answerDetails),
    on(endpoints.accounts.alerts, () =>
      wrapped({ alerts: [{ kind: 'LOW_CREDIT' as const, enabled: false, threshold: 5 }], recipients: [] }),
    ),
  );
  renderPage(`/account/${ACCOUNT}/settings`, '/account/:accountId/settings', <SettingsPage />);
  return calls;
}

setUpPageTests();
afterEach(() => clearSession());

describe('SettingsPage: copying the account id and a failed load', () => {
  it('copies the whole account id with its own copy button', async () => {
    const writeText = stubClipboard();
    open(() => wrapped(details));
    const info = (await screen.findByText('Account Information')).closest('.ant-card') as HTMLElement;
    await within(info).findByText(ACCOUNT);

    fireEvent.click(within(info).getByRole('button', { name: 'Copy account ID' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.copied));
    expect(writeText).toHaveBeenCalledWith(ACCOUNT);
  });

  it('says what to do instead of endless skeletons when the details fail, and Try again loads them', async () => {
    let attempt = 0;
    const calls = open(() => {
      attempt += 1;
      return attempt === 1 ? failed(503, 'Accounts are resting') : wrapped(details);
    });

    expect(await screen.findByText(/Accounts are resting Check your connection, then try again\./)).toBeTruthy();
    expect(screen.queryByText('Account Information')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    const info = (await screen.findByText('Account Information')).closest('.ant-card') as HTMLElement;
    expect(await within(info).findByText(ACCOUNT)).toBeTruthy();
    expect(callsTo(calls, endpoints.accounts.details)).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});
