import { type AccountDetails, endpoints, Messages } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../lib/format';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { clearSession, setAuthSession } from '../../session/session-store';
import { accountDetails, TEST_ACCOUNT_ID } from '../../testing/account-details';
import {
  callsTo,
  type EndpointStub,
  type FetchCall,
  failed,
  on,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { SettingsPage } from './settings-page';

const T = Texts.settings;
const { details: readDetails, signingSecret, rotateSigningSecret } = endpoints.accounts;
const OLD = 'whsec_b2xkIHNlY3JldA==';
const NEW = 'whsec_bmV3IHNlY3JldA==';
const UNTIL = '2026-11-25T12:00:00.000Z';

/** The Settings page of an account where the user holds `roleName`; the stubs in `first` may answer a call first. */
function open(details: AccountDetails, ...first: EndpointStub[]) {
  setAuthSession({
    idToken: 't',
    expiresIn: 3600,
    user: { sub: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', email: 'owner@example.com', givenName: 'A', familyName: 'O' },
  });
  const calls = serveEndpoints(
    ...first,
    on(readDetails, () => wrapped(details)),
    on(signingSecret, () => wrapped({ secret: OLD })),
    on(endpoints.cards.list, () => wrapped([])),
  );
  renderPage(`/account/${TEST_ACCOUNT_ID}/settings`, '/account/:accountId/settings', <SettingsPage />);
  return calls;
}

const information = async () => (await screen.findByText('Account Information')).closest('.ant-card') as HTMLElement;
const confirmation = async () =>
  (await screen.findByText(T.rotateSecretTitle)).closest('[role="dialog"]') as HTMLElement;
const rotations = (calls: FetchCall[]) => callsTo(calls, rotateSigningSecret);

setUpPageTests();
afterEach(() => clearSession());

describe('Settings: rotating the signing secret', () => {
  it('asks first, then shows the new secret and until when the previous one still signs', async () => {
    const calls = open(
      accountDetails(),
      on(rotateSigningSecret, () =>
        wrapped({ secret: NEW, previousSecretExpiresAt: UNTIL }, Messages.signingSecretRotated),
      ),
    );
    const info = await information();
    fireEvent.click(await within(info).findByRole('button', { name: T.rotate }));
    const dialog = await confirmation();
    expect(within(dialog).getByText(T.rotateSecretText)).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: T.cancel }));
    await waitFor(() => expect(screen.queryByText(T.rotateSecretTitle)).toBeNull());
    expect(rotations(calls)).toHaveLength(0);

    fireEvent.click(within(info).getByRole('button', { name: T.rotate }));
    fireEvent.click(within(await confirmation()).getByRole('button', { name: T.rotate }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.signingSecretRotated));
    expect(rotations(calls)).toHaveLength(1);
    expect(await within(info).findByText(NEW)).toBeTruthy();
    expect(within(info).queryByText(OLD)).toBeNull();
    expect(within(info).getByText(T.previousSecretUntil(formatDateTime(UNTIL)))).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(T.rotateSecretTitle)).toBeNull());
  });

  it('shows a refused rotation and keeps the secret hidden', async () => {
    open(
      accountDetails(),
      on(rotateSigningSecret, () => failed(403, Messages.ownerOnlySigningSecret, 'Forbidden')),
    );
    const info = await information();
    fireEvent.click(await within(info).findByRole('button', { name: T.rotate }));
    fireEvent.click(within(await confirmation()).getByRole('button', { name: T.rotate }));
    await waitFor(() => expect(toast.error).toHaveBeenCalled());
    expect((vi.mocked(toast.error).mock.calls.at(-1)?.[0] as Error | undefined)?.message).toBe(
      Messages.ownerOnlySigningSecret,
    );
    expect(within(info).getByLabelText(T.signingSecret).textContent).toBe(T.hiddenSecret);
    expect(within(info).queryByText(NEW)).toBeNull();
  });

  it('offers a MEMBER neither Reveal nor Rotate, and says who can', async () => {
    open(accountDetails({ roleName: 'MEMBER' }));
    const info = await information();
    expect(await within(info).findByText(T.ownerOnlySecret)).toBeTruthy();
    expect(within(info).queryByRole('button', { name: T.reveal })).toBeNull();
    expect(within(info).queryByRole('button', { name: T.rotate })).toBeNull();
  });
});
