import { endpoints, KeyRuleMessages, Messages } from '@ebs/contract';
import { fireEvent, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast } from '../../lib/toast';
import { callsTo, setUpPageTests } from '../../testing/page-test-kit';
import { button, field, JWT_KEY_ID, openKeysPage, openSecurity, type } from './key-security-test-kit';
import { keySettings, PUBLIC_PEM } from './keys-test-kit';

const { updateSettings } = endpoints.keys;

setUpPageTests();

describe('ApiKeysPage: JWT-signed requests', () => {
  it('needs a public key before the switch turns on, then saves the key and the switch together', async () => {
    const calls = openKeysPage(keySettings());
    const details = await openSecurity();
    const jwtSwitch = within(details).getByRole('switch', { name: 'Require JWT-signed requests' });
    expect((jwtSwitch as HTMLButtonElement).disabled).toBe(true);
    expect(within(details).getByText(KeyRuleMessages.jwtWithoutKeys)).toBeTruthy();

    const keys = field(details, 'Public keys');
    type(details, 'Public key (PEM)', '-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----');
    fireEvent.click(button(keys, 'Add public key'));
    expect(await within(keys).findByText(KeyRuleMessages.pemPrivate(1))).toBeTruthy();
    type(details, 'Public key (PEM)', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5');
    fireEvent.click(button(keys, 'Add public key'));
    expect(await within(keys).findByText(KeyRuleMessages.pemInvalid(1))).toBeTruthy();

    type(details, 'Public key (PEM)', PUBLIC_PEM);
    fireEvent.click(button(keys, 'Add public key'));
    expect(await within(keys).findByText('New public key 1, saved with Save')).toBeTruthy();
    await waitFor(() => expect((jwtSwitch as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(jwtSwitch);

    fireEvent.click(button(details, 'Save'));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.apiKeySettingsSaved));
    expect(callsTo(calls, updateSettings)[0]?.body).toEqual({
      jwtRequired: true,
      jwtPublicKeys: [{ pem: PUBLIC_PEM }],
    });
    expect(await within(keys).findByText('eeeeeeee-eeee-4eee-8eee-000000000000')).toBeTruthy();
  });

  it('refuses to keep JWT-signed requests once the last public key is removed', async () => {
    const calls = openKeysPage(
      keySettings({
        jwtRequired: true,
        jwtPublicKeys: [{ id: JWT_KEY_ID, algorithm: 'ES256', createdAt: '2026-11-20T10:00:00.000Z' }],
      }),
    );
    const details = await openSecurity();

    fireEvent.click(button(details, `Remove public key ${JWT_KEY_ID}`));
    fireEvent.click(button(details, 'Save'));
    const jwt = field(details, 'Require JWT-signed requests');
    expect(await within(jwt).findByText(KeyRuleMessages.jwtWithoutKeys)).toBeTruthy();
    expect(callsTo(calls, updateSettings)).toHaveLength(0);

    fireEvent.click(within(details).getByRole('switch', { name: 'Require JWT-signed requests' }));
    fireEvent.click(button(details, 'Save'));
    await waitFor(() => expect(callsTo(calls, updateSettings)).toHaveLength(1));
    expect(callsTo(calls, updateSettings)[0]?.body).toEqual({ jwtRequired: false, jwtPublicKeys: [] });
  });

  it('adds a public key beside a saved one: the saved one is sent by its id, so its kid stays', async () => {
    const calls = openKeysPage(
      keySettings({ jwtPublicKeys: [{ id: JWT_KEY_ID, algorithm: 'ES256', createdAt: '2026-11-20T10:00:00.000Z' }] }),
    );
    const details = await openSecurity();
    const keys = field(details, 'Public keys');

    type(details, 'Public key (PEM)', PUBLIC_PEM);
    fireEvent.click(button(keys, 'Add public key'));
    fireEvent.click(button(details, 'Save'));
    await waitFor(() => expect(callsTo(calls, updateSettings)).toHaveLength(1));
    expect(callsTo(calls, updateSettings)[0]?.body).toEqual({
      jwtPublicKeys: [{ id: JWT_KEY_ID }, { pem: PUBLIC_PEM }],
    });
  });
});
