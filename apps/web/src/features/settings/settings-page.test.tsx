import { type AccountDetails, endpoints, Messages, type UserRole } from '@ebs/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { clearSession, setAuthSession } from '../../session/session-store';
import { accountDetails, TEST_ACCOUNT_ID } from '../../testing/account-details';
import {
  callsTo,
  type EndpointStub,
  failed,
  on,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  stubWindowWidth,
  wrapped,
} from '../../testing/page-test-kit';
import { DeleteAccountModal } from './delete-account-modal';
import { SettingsPage } from './settings-page';

const ACCOUNT = TEST_ACCOUNT_ID;
const ME = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const owner: UserRole = { id: ME, email: 'owner@example.com', firstName: 'Ann', lastName: 'Owner', roleName: 'OWNER' };
const member: UserRole = {
  id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  email: 'bob@example.com',
  firstName: 'Bob',
  lastName: 'Member',
  roleName: 'MEMBER',
};
const invited: UserRole = {
  id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc',
  email: 'new@example.com',
  firstName: '',
  lastName: '',
  roleName: 'INVITED',
};

const { details: readDetails, isFeatureEnabled, signingSecret, rename, addUser, removeUser } = endpoints.accounts;
const cardList = endpoints.cards.list;

const account = (patch: Partial<AccountDetails> = {}) =>
  accountDetails({ owner: { email: owner.email }, userRoles: [owner, member, invited], ...patch });

/** The page as user `me`, the server answering details from `state`; the stubs in `first` may answer a call first. */
function open(state: { details: AccountDetails }, ...first: EndpointStub[]) {
  setAuthSession({
    idToken: 't',
    expiresIn: 3600,
    user: { sub: ME, email: owner.email, givenName: 'A', familyName: 'O' },
  });
  const calls = serveEndpoints(
    ...first,
    on(readDetails, () => wrapped(state.details)),
    on(cardList, () => wrapped([])),
    on(isFeatureEnabled, () => wrapped({ featureName: 'TOKEN_FORWARDING', result: false })),
  );
  renderPage(`/account/${ACCOUNT}/settings`, '/account/:accountId/settings', <SettingsPage />);
  return calls;
}

const section = async (title: string) => (await screen.findByText(title)).closest('.ant-card') as HTMLElement;
const row = (email: string) => screen.getByText(email, { selector: 'td' }).closest('tr') as HTMLElement;
const dialog = async (title: string) => (await screen.findByText(title)).closest('[role="dialog"]') as HTMLElement;

setUpPageTests();
afterEach(() => clearSession());

describe('SettingsPage: Account Information', () => {
  it('shows name, status, id, creation date, owner and roles, with the secret hidden until Reveal', async () => {
    const calls = open(
      { details: account() },
      on(signingSecret, () => wrapped({ secret: 'whsec_c2VjcmV0' })),
    );
    const info = await section('Account Information');
    await within(info).findByText('Ops');
    expect(within(info).getByText('ACTIVE')).toBeTruthy();
    expect(within(info).getByText(ACCOUNT)).toBeTruthy();
    expect(within(info).getByText('2026-11-21')).toBeTruthy();
    expect(within(info).getByText('owner@example.com')).toBeTruthy();
    const roles = within(info).getByText('User Roles').closest('tr') as HTMLElement;
    expect(roles.textContent).toBe('User RolesOwner');

    expect(within(info).queryByText('whsec_c2VjcmV0')).toBeNull();
    expect(callsTo(calls, signingSecret)).toHaveLength(0);
    fireEvent.click(within(info).getByRole('button', { name: 'Reveal' }));
    expect(await within(info).findByText('whsec_c2VjcmV0')).toBeTruthy();
    expect(callsTo(calls, signingSecret)).toHaveLength(1);
    expect(within(info).getByRole('button', { name: 'Copy' })).toBeTruthy();
  });

  it("names the signed-in user's own role in words under User Roles, not a count of everyone's", async () => {
    const me = { ...member, id: ME };
    open({ details: account({ roleName: 'MEMBER', userRoles: [{ ...owner, id: 'someone-else' }, me, invited] }) });
    const info = await section('Account Information');
    await within(info).findByText('Ops');
    const roles = within(info).getByText('User Roles').closest('tr') as HTMLElement;
    expect(within(roles).getByText('Member')).toBeTruthy();
    expect(roles.textContent).not.toMatch(/Owner|×/);
  });

  it('puts each label beside its value on a wide screen and above it on a phone', async () => {
    const ownerRow = async () => {
      const info = await section('Account Information');
      // The label, not the signed-in owner's role under User Roles.
      const label = (await within(info).findAllByText('Owner')).find((e) => e.closest('th'));
      return label?.closest('tr') as HTMLElement;
    };
    open({ details: account() });
    expect(within(await ownerRow()).getByText('owner@example.com')).toBeTruthy();
    cleanup();

    stubWindowWidth(390);
    open({ details: account() });
    const labelRow = await ownerRow();
    expect(within(labelRow).queryByText('owner@example.com')).toBeNull();
    expect(within(labelRow.nextElementSibling as HTMLElement).getByText('owner@example.com')).toBeTruthy();
  });

  it('shows SUSPENDED for an account whose billing API is off', async () => {
    open({ details: account({ isBillingApiEnabled: false, status: 'SUSPENDED' }) });
    expect(await within(await section('Account Information')).findByText('SUSPENDED')).toBeTruthy();
  });

  it('shows a failed secret fetch and keeps the secret hidden', async () => {
    open(
      { details: account() },
      on(signingSecret, () => failed(403, Messages.notAMember, 'Forbidden')),
    );
    const info = await section('Account Information');
    fireEvent.click(await within(info).findByRole('button', { name: 'Reveal' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalled());
    expect((vi.mocked(toast.error).mock.calls.at(-1)?.[0] as Error | undefined)?.message).toBe(Messages.notAMember);
    expect(within(info).getByRole('button', { name: 'Reveal' })).toBeTruthy();
  });

  it('renames with Edit Account Name: "{name} has been updated.", then reloads the account', async () => {
    const state = { details: account() };
    const calls = open(
      state,
      on(rename, () => {
        state.details = account({ name: 'Ops two', accountName: 'Ops two' });
        return wrapped({ ...state.details }, 'Ops two has been updated.');
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Edit account name' }));
    const modal = await dialog('Edit Account Name');
    fireEvent.change(within(modal).getByLabelText('Account name'), { target: { value: 'Ops two' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Ops two has been updated.'));
    expect(callsTo(calls, rename)[0]?.body).toEqual({
      accountName: 'Ops two',
    });
    expect(await screen.findByText('Ops two', { selector: '[data-testid="account-name"]' })).toBeTruthy();
    await waitFor(() => expect(callsTo(calls, cardList)).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('Edit Account Name')).toBeNull());
  });

  it('keeps the current name when the field is left empty', async () => {
    const calls = open(
      { details: account() },
      on(rename, () => wrapped(account(), 'Ops has been updated.')),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Edit account name' }));
    fireEvent.click(within(await dialog('Edit Account Name')).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Ops has been updated.'));
    expect(callsTo(calls, rename)[0]?.body).toEqual({ accountName: 'Ops' });
  });

  it('says "Account name is required." when both the typed and the current name are empty', async () => {
    const calls = open({ details: account({ name: '', accountName: '' }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit account name' }));
    const modal = await dialog('Edit Account Name');
    fireEvent.click(within(modal).getByRole('button', { name: 'Save' }));
    expect(await within(modal).findByText('Account name is required.')).toBeTruthy();
    fireEvent.change(within(modal).getByLabelText('Account name'), { target: { value: 'semi;colon' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Save' }));
    expect(await within(modal).findByText('Invalid account name')).toBeTruthy();
    expect(callsTo(calls, rename)).toHaveLength(0);
  });
});

describe('SettingsPage: Account Access', () => {
  it('lists users with e-mail, name and role; Remove is hidden on my own row and on OWNER rows', async () => {
    open({ details: account() });
    const access = await section('Account Access');
    await within(access).findByText('bob@example.com');
    expect(within(row('bob@example.com')).getByText('Bob Member')).toBeTruthy();
    expect(within(row('bob@example.com')).getByText('MEMBER')).toBeTruthy();
    expect(within(row('new@example.com')).getByText('INVITED')).toBeTruthy();
    expect(within(row('new@example.com')).getByText('until they accept')).toBeTruthy();
    expect(within(row('bob@example.com')).queryByText('until they accept')).toBeNull();
    expect(within(row('owner@example.com')).queryByRole('button', { name: 'Remove' })).toBeNull();
    expect(within(row('bob@example.com')).getByRole('button', { name: 'Remove' })).toBeTruthy();
    expect(within(row('new@example.com')).getByRole('button', { name: 'Remove' })).toBeTruthy();
  });

  it('shows a phone the e-mail and the Remove action only', async () => {
    stubWindowWidth(390);
    open({ details: account() });
    const access = await section('Account Access');
    await within(access).findByText('bob@example.com');
    expect(
      within(access)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Email', 'Actions']);
    expect(within(row('bob@example.com')).queryByText('Bob Member')).toBeNull();
    expect(within(row('bob@example.com')).getByRole('button', { name: 'Remove' })).toBeTruthy();
  });

  it('hides Remove on another OWNER row too', async () => {
    open({ details: account({ userRoles: [owner, { ...member, roleName: 'OWNER' }] }) });
    await within(await section('Account Access')).findByText('bob@example.com');
    expect(screen.queryByRole('button', { name: 'Remove' })).toBeNull();
  });

  it('adds a user: "User email is required.", the e-mail trimmed as typed, the toast and a refreshed list', async () => {
    const state = { details: account({ userRoles: [owner] }) };
    const calls = open(
      state,
      on(addUser, () => {
        state.details = account({ userRoles: [owner, member] });
        return wrapped(
          { email: 'bob@example.com', status: 'ADDED' },
          'bob@example.com has been added to this account.',
        );
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: /Add User to Account/ }));
    const modal = await dialog('Add User');
    // The dialog names the role given and that the person joins once they accept.
    expect(within(modal).getByText('MEMBER')).toBeTruthy();
    expect(within(modal).getByText(/They show as INVITED in Account Access until they accept it/)).toBeTruthy();
    fireEvent.click(within(modal).getByRole('button', { name: 'Add' }));
    expect(await within(modal).findByText('User email is required.')).toBeTruthy();

    const input = within(modal).getByLabelText('User email') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '  bob@example.com ' } });
    expect(input.value).toBe('bob@example.com');
    fireEvent.click(within(modal).getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('bob@example.com has been added to this account.'));
    expect(callsTo(calls, addUser)[0]?.body).toEqual({ email: 'bob@example.com' });
    expect(await screen.findByText('bob@example.com', { selector: 'td' })).toBeTruthy();
    await waitFor(() => expect(callsTo(calls, cardList)).toHaveLength(1));
  });

  it('keeps Add User open and shows the refusal when the server refuses', async () => {
    open(
      { details: account() },
      on(addUser, () => failed(400, 'bob@example.com is already a member of this account.')),
    );
    fireEvent.click(await screen.findByRole('button', { name: /Add User to Account/ }));
    const modal = await dialog('Add User');
    fireEvent.change(within(modal).getByLabelText('User email'), { target: { value: 'bob@example.com' } });
    fireEvent.click(within(modal).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalled());
    expect((vi.mocked(toast.error).mock.calls.at(-1)?.[0] as Error | undefined)?.message).toBe(
      'bob@example.com is already a member of this account.',
    );
    expect(screen.getByText('Add User', { selector: '.ant-modal-title' })).toBeTruthy();
  });

  it('removes after the spec confirmation, toasts and refreshes the list', async () => {
    const state = { details: account() };
    const calls = open(
      state,
      on(removeUser, () => {
        state.details = account({ userRoles: [owner, invited] });
        return wrapped({}, 'User has been removed from this account.');
      }),
    );
    await within(await section('Account Access')).findByText('bob@example.com');
    fireEvent.click(within(row('bob@example.com')).getByRole('button', { name: 'Remove' }));
    const modal = await dialog('Removing this user from account');
    expect(within(modal).getByText('The user will no long access to this account.')).toBeTruthy();
    fireEvent.click(within(modal).getByRole('button', { name: 'Remove' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('User has been removed from this account.'));
    expect(callsTo(calls, removeUser).filter((c) => c.params.userId === member.id)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByText('bob@example.com', { selector: 'td' })).toBeNull());
  });

  it('cancelling the confirmation removes nobody', async () => {
    const calls = open({ details: account() });
    await within(await section('Account Access')).findByText('bob@example.com');
    fireEvent.click(within(row('bob@example.com')).getByRole('button', { name: 'Remove' }));
    fireEvent.click(within(await dialog('Removing this user from account')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByText('Removing this user from account')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
  });
});

describe('SettingsPage: a MEMBER and the delete confirmation', () => {
  it('shows a MEMBER no edit icon, no Add User to Account and no Remove', async () => {
    open({ details: account({ roleName: 'MEMBER' }) });
    await within(await section('Account Access')).findByText('bob@example.com');
    expect(await screen.findByText(Texts.settings.ownerOnlyHint)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit account name' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Add User to Account/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove' })).toBeNull();
    // The secret signs the account's webhooks: the owner's only, and the member is told so.
    expect(screen.queryByRole('button', { name: 'Reveal' })).toBeNull();
    expect(screen.getByText(Texts.settings.ownerOnlySecret)).toBeTruthy();
  });

  it('never offers the delete confirmation on the page', async () => {
    open({ details: account() });
    await within(await section('Account Access')).findByText('bob@example.com');
    expect(screen.queryByText(/delete/i)).toBeNull();
  });

  it('the delete confirmation says "Account has been deleted" without calling the server', async () => {
    const calls = serveEndpoints();
    const onClose = vi.fn();
    render(<DeleteAccountModal onClose={onClose} />);
    fireEvent.click(within(await dialog('Delete Account')).getByRole('button', { name: 'Delete' }));
    expect(toast.success).toHaveBeenCalledWith('Account has been deleted');
    expect(onClose).toHaveBeenCalled();
    expect(calls).toHaveLength(0);
  });
});
