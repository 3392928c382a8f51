import { type Endpoint, endpoints, Messages, type MfaStatus, type UserInfo } from '@ebs/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import { clearSession, getSession } from '../../session/session-store';
import { stubClipboard } from '../../testing/clipboard';
import {
  callsTo,
  type EndpointStub,
  type FetchCall,
  failed,
  on,
  type Reply,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { ChangePasswordPage } from './change-password-page';
import { SecurityPage } from './security-page';

const user = (mfaEnabled: boolean): UserInfo => ({
  id: 'u1',
  email: 'ann@example.com',
  firstName: 'Ann',
  lastName: 'Lee',
  mfaEnabled,
  bonusRedemption: { welcomeCredit: false },
  ambassador: null,
});
const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const uri = `otpauth://totp/EBS%20Console:ann%40example.com?issuer=EBS%20Console&secret=${secret}&algorithm=SHA1&digits=6&period=30`;
const recoveryCodes = Array.from({ length: 10 }, (_, i) => `abcde-${23450 + i}`);

const { setupMfa, enableMfa, disableMfa } = endpoints.identity;

/** The Security page; the user info says whether two-factor sign-in is on, `stubs` answer the rest. */
function open(mfaEnabled: boolean, ...stubs: EndpointStub[]) {
  const calls = serveEndpoints(
    on(endpoints.users.info, () => wrapped(user(mfaEnabled))),
    ...stubs,
  );
  renderPage('/security', '/security', <SecurityPage />);
  return calls;
}

const section = () => screen.getByRole('heading', { name: 'Two-factor sign-in' }).closest('.ant-card') as HTMLElement;
const posted = (calls: FetchCall[], endpoint: Endpoint) => callsTo(calls, endpoint).map((c) => c.body);

describe('the Two-factor sign-in section of the Security page', () => {
  setUpPageTests();
  afterEach(() => clearSession());

  it('turns on: QR code and secret, a code confirms, the recovery codes show once with a copy button', async () => {
    const writeText = stubClipboard();
    const calls = open(
      false,
      on(setupMfa, () => wrapped({ secret, uri })),
      on(enableMfa, () => wrapped({ mfaEnabled: true, recoveryCodes })),
    );
    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Security', level: 2 })).toBeTruthy();
    expect(await within(section()).findByText('Off')).toBeTruthy();

    fireEvent.click(within(section()).getByRole('button', { name: 'Turn on' }));
    const qr = await within(section()).findByRole('img', { name: 'QR code for the authenticator app' });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(qr.querySelector('path')).toBeTruthy();
    expect(within(section()).getByText(secret)).toBeTruthy();
    fireEvent.click(within(section()).getByRole('button', { name: 'Copy' }));
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith(secret));

    const field = within(section()).getByLabelText('Authentication code') as HTMLInputElement;
    expect(document.activeElement).toBe(field);
    expect(field.inputMode).toBe('numeric');
    fireEvent.change(field, { target: { value: '654321' } });
    fireEvent.click(within(section()).getByRole('button', { name: 'Confirm' }));

    const list = await within(section()).findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(recoveryCodes);
    expect(posted(calls, enableMfa)).toEqual([{ code: '654321' }]);
    expect(within(section()).getByText('On')).toBeTruthy();
    expect(getSession().mfaEnabled).toBe(true);
    expect(toast.success).toHaveBeenCalledWith(Messages.mfaTurnedOn);
    expect(within(section()).queryByText(secret)).toBeNull();
    fireEvent.click(within(section()).getByRole('button', { name: 'Copy' }));
    await vi.waitFor(() => expect(writeText).toHaveBeenLastCalledWith(recoveryCodes.join('\n')));

    fireEvent.click(within(section()).getByRole('button', { name: 'I have saved them' }));
    expect(await within(section()).findByRole('button', { name: 'Turn off' })).toBeTruthy();
    expect(within(section()).queryByText(recoveryCodes[0] ?? '')).toBeNull();
    // The whole way through: the time a loaded machine needs.
  }, 40_000);

  it("shows the server's message for a wrong code and stays off, the secret still shown", async () => {
    open(
      false,
      on(setupMfa, () => wrapped({ secret, uri })),
      on(enableMfa, () => failed(400, Messages.mfaCodeMismatch, 'CodeMismatchException')),
    );
    fireEvent.click(await within(section()).findByRole('button', { name: 'Turn on' }));
    fireEvent.change(await within(section()).findByLabelText('Authentication code'), { target: { value: '000000' } });
    fireEvent.click(within(section()).getByRole('button', { name: 'Confirm' }));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(expect.objectContaining({ message: Messages.mfaCodeMismatch })),
    );
    expect(within(section()).getByText('Off')).toBeTruthy();
    expect(within(section()).getByText(secret)).toBeTruthy();
    expect(getSession().mfaEnabled).toBe(false);
  });

  it('Cancel goes back to the status without turning anything on', async () => {
    const calls = open(
      false,
      on(setupMfa, () => wrapped({ secret, uri })),
    );
    fireEvent.click(await within(section()).findByRole('button', { name: 'Turn on' }));
    await within(section()).findByText(secret);
    fireEvent.click(within(section()).getByRole('button', { name: 'Cancel' }));
    expect(await within(section()).findByRole('button', { name: 'Turn on' })).toBeTruthy();
    expect(within(section()).queryByText(secret)).toBeNull();
    expect(posted(calls, enableMfa)).toHaveLength(0);
  });

  it('turns off with a code: a wrong one is refused with its message, a recovery code works', async () => {
    let answer: Reply<MfaStatus> = failed(400, Messages.mfaCodeMismatch, 'CodeMismatchException');
    const calls = open(
      true,
      on(disableMfa, () => answer),
    );
    expect(await within(section()).findByText('On')).toBeTruthy();
    fireEvent.click(within(section()).getByRole('button', { name: 'Turn off' }));
    fireEvent.change(await within(section()).findByLabelText('Authentication code'), { target: { value: '111111' } });
    fireEvent.click(within(section()).getByRole('button', { name: 'Turn off' }));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(expect.objectContaining({ message: Messages.mfaCodeMismatch })),
    );
    expect(within(section()).getByText('On')).toBeTruthy();

    answer = wrapped({ mfaEnabled: false });
    fireEvent.click(within(section()).getByRole('button', { name: 'Use a recovery code' }));
    fireEvent.change(within(section()).getByLabelText('Recovery code'), { target: { value: 'abcde-23456' } });
    fireEvent.click(within(section()).getByRole('button', { name: 'Turn off' }));
    expect(await within(section()).findByText('Off')).toBeTruthy();
    expect(posted(calls, disableMfa)).toEqual([{ code: '111111' }, { code: 'abcde-23456' }]);
    expect(getSession().mfaEnabled).toBe(false);
    expect(toast.success).toHaveBeenCalledWith(Messages.mfaTurnedOff);
    expect(within(section()).getByRole('button', { name: 'Turn on' })).toBeTruthy();
  });

  it('is its own page: Change password points to it and holds no two-factor controls', async () => {
    serveEndpoints(on(endpoints.users.info, () => wrapped(user(false))));
    renderPage('/change-password', '/change-password', <ChangePasswordPage />);
    const link = await screen.findByRole('link', { name: 'Security' });
    expect(link.getAttribute('href')).toBe('/security');
    expect(screen.queryByRole('heading', { name: 'Two-factor sign-in' })).toBeNull();
  });
});
