import { endpoints, KeyRuleMessages, Messages } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast } from '../../lib/toast';
import { stubClipboard } from '../../testing/clipboard';
import { callsTo, failed, on, setUpPageTests } from '../../testing/page-test-kit';
import {
  button,
  dialog,
  drawer,
  field,
  JWT_KEY_ID,
  KEY_ID,
  lastError,
  openKeysPage,
  openSecurity,
  pressEnter,
  type,
} from './key-security-test-kit';
import { keySettings } from './keys-test-kit';

const EXPIRY = 'Expiry date (the key stops working at the end of this day, UTC)';
const { settings, updateSettings } = endpoints.keys;

setUpPageTests();

describe('ApiKeysPage: the security settings of a key', () => {
  it('opens from Security with the key named, and says what an empty list allows', async () => {
    openKeysPage(keySettings());
    const details = await openSecurity();

    expect(within(details).getByText(KEY_ID)).toBeTruthy();
    expect(within(field(details, 'Allowed origins')).getByText('Any origin')).toBeTruthy();
    expect(within(field(details, 'Allowed IP addresses')).getByText('Any IP address')).toBeTruthy();
    expect(within(field(details, 'Allowed methods')).getByText('Any method')).toBeTruthy();
    expect(within(field(details, 'Allowed contract addresses')).getByText('Any contract address')).toBeTruthy();
    expect((within(details).getByLabelText('Requests per second') as HTMLInputElement).value).toBe('');
    expect((within(details).getByLabelText('Requests per day (UTC)') as HTMLInputElement).value).toBe('');
    expect(within(field(details, 'Public keys')).getByText('No public keys')).toBeTruthy();
  });

  it('shows what a locked-down key holds, the JWT key id copyable', async () => {
    const writeText = stubClipboard();
    openKeysPage(
      keySettings({
        allowedOrigins: ['https://app.example.com'],
        allowedIps: ['203.0.113.0/24'],
        allowedMethods: ['eth_call'],
        requestsPerSecond: 25,
        expiresAt: '2099-12-31T23:59:59.999Z',
        jwtRequired: true,
        jwtPublicKeys: [{ id: JWT_KEY_ID, algorithm: 'RS256', createdAt: '2026-11-20T10:00:00.000Z' }],
      }),
    );
    const details = await openSecurity();

    expect(within(field(details, 'Allowed origins')).getByText('https://app.example.com')).toBeTruthy();
    expect(within(field(details, 'Allowed origins')).queryByText('Any origin')).toBeNull();
    expect(within(field(details, 'Allowed IP addresses')).getByText('203.0.113.0/24')).toBeTruthy();
    expect(within(field(details, 'Allowed methods')).getByText('eth_call')).toBeTruthy();
    expect(within(field(details, 'Allowed contract addresses')).getByText('Any contract address')).toBeTruthy();
    expect((within(details).getByLabelText('Requests per second') as HTMLInputElement).value).toBe('25');
    const expiry = field(details, EXPIRY);
    expect((within(expiry).getByRole('textbox') as HTMLInputElement).value).toBe('2099-12-31');
    expect(within(expiry).getByText('The key works until 2099-12-31 23:59:59 UTC.')).toBeTruthy();
    expect(
      within(details).getByRole('switch', { name: 'Require JWT-signed requests' }).getAttribute('aria-checked'),
    ).toBe('true');

    const keys = field(details, 'Public keys');
    expect(within(keys).getByText(JWT_KEY_ID)).toBeTruthy();
    expect(within(keys).getByText('RS256')).toBeTruthy();
    expect(within(keys).getByText(/^Added 2026-11-2\d$/)).toBeTruthy();
    fireEvent.click(button(keys, 'Copy key ID'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(JWT_KEY_ID));
  });

  it('refuses a wrong entry with the contract message under its list, and sends nothing', async () => {
    const calls = openKeysPage(keySettings());
    const details = await openSecurity();

    type(details, 'Allowed origins', 'app.example.com/path');
    fireEvent.click(button(details, 'Add origin'));
    const origins = field(details, 'Allowed origins');
    expect(await within(origins).findByText(KeyRuleMessages.origin('app.example.com/path'))).toBeTruthy();
    expect(within(origins).getByText('Any origin')).toBeTruthy();

    type(details, 'Allowed contract addresses', '0x1234');
    fireEvent.click(button(details, 'Add contract address'));
    expect(
      await within(field(details, 'Allowed contract addresses')).findByText(KeyRuleMessages.contract('0x1234')),
    ).toBeTruthy();

    fireEvent.click(button(details, 'Save'));
    await waitFor(() => expect(toast.info).toHaveBeenCalledWith('Nothing to save: no setting has changed.'));
    expect(callsTo(calls, updateSettings)).toHaveLength(0);
  });

  it('refuses a 101st entry in a list', async () => {
    const full = Array.from({ length: 100 }, (_, i) => `10.0.0.${i + 1}`);
    const calls = openKeysPage(keySettings({ allowedIps: full }));
    const details = await openSecurity();

    type(details, 'Allowed IP addresses', '192.0.2.1');
    fireEvent.click(button(details, 'Add IP address'));
    const ips = field(details, 'Allowed IP addresses');
    expect(await within(ips).findByText('At most 100 allowed IP addresses.')).toBeTruthy();
    expect(within(ips).queryByText('192.0.2.1')).toBeNull();
    expect(callsTo(calls, updateSettings)).toHaveLength(0);
  });

  it('saves only the changed settings, entries written as stored, and says so', async () => {
    const calls = openKeysPage(keySettings({ allowedIps: ['198.51.100.7'], requestsPerSecond: 10 }));
    const details = await openSecurity();
    const warning =
      'With an origin rule, calls without an Origin or Referer header (servers, scripts, curl) are refused.';
    expect(within(details).queryByText(warning)).toBeNull();

    type(details, 'Allowed origins', 'HTTPS://App.Example.com:443/');
    pressEnter(within(details).getByLabelText('Allowed origins'));
    expect(await within(field(details, 'Allowed origins')).findByText('https://app.example.com')).toBeTruthy();
    // Said before Save: calls from servers and curl will be refused.
    expect(within(details).getByText(warning)).toBeTruthy();
    type(details, 'Allowed origins', 'https://*.example.com');
    fireEvent.click(button(details, 'Add origin'));
    await within(field(details, 'Allowed origins')).findByText('https://*.example.com');
    type(details, 'Requests per day (UTC)', '50000');

    fireEvent.click(button(details, 'Save'));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.apiKeySettingsSaved));
    expect(callsTo(calls, updateSettings).map((c) => c.body)).toEqual([
      { allowedOrigins: ['https://app.example.com', 'https://*.example.com'], requestsPerDay: 50000 },
    ]);
    expect(callsTo(calls, updateSettings)[0]?.params.apiKeyId).toBe(KEY_ID);

    // What was saved is the new starting point: removing an entry sends only that list.
    fireEvent.click(button(details, 'Remove 198.51.100.7'));
    expect(within(field(details, 'Allowed IP addresses')).getByText('Any IP address')).toBeTruthy();
    fireEvent.click(button(details, 'Save'));
    await waitFor(() => expect(callsTo(calls, updateSettings)).toHaveLength(2));
    expect(callsTo(calls, updateSettings)[1]?.body).toEqual({ allowedIps: [] });
  });

  it('sets compute unit limits per second and per UTC day beside the request limits, and clears one to null', async () => {
    const calls = openKeysPage(keySettings({ computeUnitsPerDay: 2_000_000 }));
    const details = await openSecurity();
    const perSecond = within(details).getByLabelText('Compute units per second') as HTMLInputElement;
    const perDay = within(details).getByLabelText('Compute units per day (UTC)') as HTMLInputElement;
    expect([perSecond.value, perDay.value]).toEqual(['', '2000000']);
    expect(perSecond.placeholder).toBe('No limit');
    expect(within(field(details, 'Compute units per second')).getByText(/Empty: no limit\./)).toBeTruthy();

    type(details, 'Compute units per second', '500');
    fireEvent.click(button(details, 'Save'));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.apiKeySettingsSaved));
    expect(callsTo(calls, updateSettings).map((c) => c.body)).toEqual([{ computeUnitsPerSecond: 500 }]);

    type(details, 'Compute units per day (UTC)', '');
    fireEvent.click(button(details, 'Save'));
    await waitFor(() => expect(callsTo(calls, updateSettings)).toHaveLength(2));
    expect(callsTo(calls, updateSettings)[1]?.body).toEqual({ computeUnitsPerDay: null });
  });

  it('asks before closing with unsaved settings: Keep editing keeps them, Leave drops them; saved ones close at once', async () => {
    const calls = openKeysPage(keySettings());
    let details = await openSecurity();
    const close = () => fireEvent.click(within(details).getByRole('button', { name: 'Close' }));
    type(details, 'Requests per second', '25');
    close();
    const ask = await dialog('Leave without saving?');
    expect(within(ask).getByText(/not saved yet; leaving drops them/)).toBeTruthy();
    fireEvent.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByText('Leave without saving?')).toBeNull());
    expect((within(details).getByLabelText('Requests per second') as HTMLInputElement).value).toBe('25');

    // Saved, the same change is no longer unsaved: Close closes.
    fireEvent.click(button(details, 'Save'));
    await waitFor(() => expect(callsTo(calls, updateSettings)).toHaveLength(1));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(Messages.apiKeySettingsSaved));
    close();
    await waitFor(() => expect(screen.queryByText('Production', { selector: '.ant-drawer-title' })).toBeNull());
    expect(screen.queryByText('Leave without saving?')).toBeNull();

    // A new change, then Leave without saving: closed, nothing sent.
    details = await openSecurity();
    type(details, 'Requests per second', '40');
    close();
    fireEvent.click(
      within(await dialog('Leave without saving?')).getByRole('button', { name: 'Leave without saving' }),
    );
    await waitFor(() => expect(screen.queryByText('Production', { selector: '.ant-drawer-title' })).toBeNull());
    expect(callsTo(calls, updateSettings)).toHaveLength(1);
  });

  it('adds a method picked from the known ones, refuses one that is not a method name', async () => {
    const calls = openKeysPage(keySettings());
    const details = await openSecurity();
    const methods = field(details, 'Allowed methods');
    const input = within(details).getByLabelText('Allowed methods');

    fireEvent.change(input, { target: { value: 'eth/call' } });
    pressEnter(input);
    expect(await within(methods).findByText(KeyRuleMessages.method('eth/call'))).toBeTruthy();

    fireEvent.mouseDown(methods.querySelector('.ant-select-selector') as HTMLElement);
    fireEvent.change(input, { target: { value: 'eth_getLo' } });
    const option = await waitFor(() => {
      const found = [...document.querySelectorAll('.ant-select-item-option')].find(
        (o) => o.textContent === 'eth_getLogs',
      );
      if (!found) throw new Error('eth_getLogs is not offered');
      return found as HTMLElement;
    });
    fireEvent.click(option);
    await waitFor(() => expect(within(methods).queryByText(KeyRuleMessages.method('eth/call'))).toBeNull());
    fireEvent.change(input, { target: { value: 'debug_*' } });
    pressEnter(input);
    await within(methods).findByText('debug_*', { selector: '.ant-select-selection-item-content' });

    fireEvent.click(button(details, 'Save'));
    await waitFor(() => expect(callsTo(calls, updateSettings)).toHaveLength(1));
    expect(callsTo(calls, updateSettings)[0]?.body).toEqual({ allowedMethods: ['eth_getLogs', 'debug_*'] });
  });

  it('sets an expiry date as the end of that day in UTC, and clears it', async () => {
    const calls = openKeysPage(keySettings());
    const details = await openSecurity();
    const expiry = field(details, EXPIRY);
    const input = within(expiry).getByRole('textbox') as HTMLInputElement;
    expect(input.placeholder).toBe('Never expires');

    // Escape closes the calendar, not the drawer.
    fireEvent.mouseDown(input);
    fireEvent.click(input);
    fireEvent.keyDown(input, { key: 'Escape', code: 'Escape', keyCode: 27 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await drawer('Production')).toBeTruthy();

    fireEvent.mouseDown(input);
    fireEvent.click(input);
    fireEvent.change(input, { target: { value: '2099-06-30' } });
    pressEnter(input);
    expect(await within(expiry).findByText('The key works until 2099-06-30 23:59:59 UTC.')).toBeTruthy();
    fireEvent.click(button(details, 'Save'));
    await waitFor(() => expect(callsTo(calls, updateSettings)).toHaveLength(1));
    expect(callsTo(calls, updateSettings)[0]?.body).toEqual({ expiresAt: '2099-06-30T23:59:59.999Z' });

    fireEvent.click(expiry.querySelector('.ant-picker-clear') as HTMLElement);
    await waitFor(() => expect(input.value).toBe(''));
    fireEvent.click(button(details, 'Save'));
    await waitFor(() => expect(callsTo(calls, updateSettings)).toHaveLength(2));
    expect(callsTo(calls, updateSettings)[1]?.body).toEqual({ expiresAt: null });
  });

  it('shows the refusal of a save as the service words it', async () => {
    const refusal = 'Requests per second can be at most 500 on this service.';
    openKeysPage(
      keySettings(),
      on(updateSettings, () => failed(400, refusal)),
    );
    const details = await openSecurity();
    type(details, 'Requests per second', '1000');

    fireEvent.click(button(details, 'Save'));
    await waitFor(() => expect(lastError()).toBe(refusal));
    expect(toast.success).not.toHaveBeenCalled();
    expect((within(details).getByLabelText('Requests per second') as HTMLInputElement).value).toBe('1000');
  });

  it('says what to do when the settings fail to load, and Try again fetches them again', async () => {
    let attempt = 0;
    const calls = openKeysPage(
      keySettings(),
      on(settings, () => {
        attempt += 1;
        return attempt === 1 ? failed(503, 'Settings are resting') : undefined;
      }),
    );
    const row = (await screen.findByText('Production', { selector: 'td span' })).closest('tr') as HTMLElement;
    fireEvent.click(button(row, 'Security'));
    const details = await drawer('Production');

    expect(await within(details).findByText(/Settings are resting/)).toBeTruthy();
    expect(within(details).getByText(/Check your connection, then try again\./)).toBeTruthy();
    fireEvent.click(button(details, 'Try again'));
    expect(await within(details).findByText('Any origin')).toBeTruthy();
    expect(callsTo(calls, settings)).toHaveLength(2);
  });
});
