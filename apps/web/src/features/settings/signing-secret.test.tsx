import { type AccountDetails, Messages } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../lib/format';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { clearSession, setAuthSession } from '../../session/session-store';
import { accountDetails, TEST_ACCOUNT_ID } from '../../testing/account-details';
import {
  type FetchCall,
  failed,
  type Reply,
  renderPage,
  serveFetch,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { SettingsPage } from './settings-page';

vi.mock('../../lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const T = Texts.settings;
const ROTATE = '/api/v1.0/account/signing-secret/rotate';
const READ = '/api/v1.0/account/signing-secret';
const OLD = 'whsec_b2xkIHNlY3JldA==';
const NEW = 'whsec_bmV3IHNlY3JldA==';
const UNTIL = '2026-11-25T12:00:00.000Z';

/** The Settings page of an account where the user holds `roleName`; `extra` answers the rest. */
function open(details: AccountDetails, extra: (call: FetchCall) => Reply | undefined = () => undefined) {
  setAuthSession({
    idToken: 't',
    expiresIn: 3600,
    user: { sub: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', email: 'owner@example.com', givenName: 'A', familyName: 'O' },
  });
  const calls = serveFetch((call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.url === '/api/v1.0/account/details') return wrapped(details);
    if (call.url === READ) return wrapped({ secret: OLD });
    if (call.url === '/api/v1.0/payment/card') return wrapped([]);
    return undefined;
  });
  renderPage(`/account/${TEST_ACCOUNT_ID}/settings`, '/account/:accountId/settings', <SettingsPage />);
  return calls;
}

const information = async () => (await screen.findByText('Account Information')).closest('.ant-card') as HTMLElement;
const confirmation = async () =>
  (await screen.findByText(T.rotateSecretTitle)).closest('[role="dialog"]') as HTMLElement;
const rotations = (calls: FetchCall[]) => calls.filter((c) => c.method === 'POST' && c.url === ROTATE);

setUpPageTests(toast);
afterEach(() => clearSession());

describe('Settings: rotating the signing secret', () => {
  it('asks first, then shows the new secret and until when the previous one still signs', async () => {
    const calls = open(accountDetails(), (call) =>
      call.url === ROTATE
        ? wrapped({ secret: NEW, previousSecretExpiresAt: UNTIL }, Messages.signingSecretRotated)
        : undefined,
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
    open(accountDetails(), (call) =>
      call.url === ROTATE ? failed(403, Messages.ownerOnlySigningSecret, 'Forbidden') : undefined,
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

  it('offers a MEMBER no Rotate, only Reveal', async () => {
    open(accountDetails({ roleName: 'MEMBER' }));
    const info = await information();
    expect(await within(info).findByRole('button', { name: T.reveal })).toBeTruthy();
    expect(within(info).queryByRole('button', { name: T.rotate })).toBeNull();
  });
});
