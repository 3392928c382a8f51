import { endpoints } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import { stubClipboard } from '../../testing/clipboard';
import {
  type EndpointStub,
  failed,
  on,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { RpcServicePage } from './rpc-page';
import { allNetworks } from './status-test-kit';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const API = 'https://api.example.com';
const DOCS = 'https://docs.example.com/';

// spec B §2, §3: the networks, their display names and paths, in the page's order.
const NETWORKS = [
  ['Ethereum Mainnet', 'ethereum/mainnet'],
  ['Ethereum Sepolia', 'ethereum/sepolia'],
  ['BSC Mainnet', 'bsc/mainnet'],
  ['BSC Testnet', 'bsc/testnet'],
  ['Polygon Mainnet', 'polygon/mainnet'],
  ['Polygon Testnet', 'polygon/amoy'],
  ['Metabit Mainnet', 'metabit/mainnet'],
  ['Metabit Testnet', 'metabit/testnet'],
  ['Aurora Mainnet', 'aurora/mainnet'],
  ['Aurora Testnet', 'aurora/testnet'],
] as const;

/** The page, with the configuration naming `apiBase`; the networks' status answers 404 unless `stubs` answer it. */
function open(apiBase = API, ...stubs: EndpointStub[]) {
  serveEndpoints(
    on(endpoints.system.config, () => wrapped({ appEnv: 'test', docsUrl: DOCS, apiBase, productName: 'EBS Console' })),
    ...stubs,
  );
  renderPage(`/account/${ACCOUNT}/services/rpc`, '/account/:accountId/services/rpc', <RpcServicePage />);
}

// antd renders the ten rows slowly in jsdom: give the configuration's answer time to show.
const slow = { timeout: 8000 };
const configLoaded = () => waitFor(() => expect(urlBox('Ethereum Mainnet').value.startsWith(API)).toBe(true), slow);

const urlBox = (name: string) => screen.getByLabelText(`${name} URL`) as HTMLTextAreaElement;
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

setUpPageTests();
afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('RpcServicePage', () => {
  it('shows the title, the two inputs with their placeholders and one row per network in order', async () => {
    open();

    expect(screen.getByRole('heading', { name: 'RPC Service' })).toBeTruthy();
    expect(screen.getByLabelText('API key ID').getAttribute('placeholder')).toBe('Enter your existing key id');
    expect(screen.getByLabelText('API key').getAttribute('placeholder')).toBe('Enter your existing key');
    const rows = screen.getAllByRole('listitem');
    expect(rows.map((row) => row.querySelector('label')?.textContent)).toEqual(NETWORKS.map(([name]) => name));
    for (const row of rows) {
      expect(within(row).getByText('POST')).toBeTruthy();
      expect(within(row).getByLabelText('Copy').tagName).toBe('BUTTON');
      // A read-only text area: the whole URL shows, over several lines on a phone.
      expect((within(row).getByRole('textbox') as HTMLTextAreaElement).readOnly).toBe(true);
    }
    await configLoaded();
    expect(screen.getByRole('textbox', { name: 'Ethereum Mainnet URL' })).toBe(urlBox('Ethereum Mainnet'));
  });

  it('shows [API_KEY_ID] and [API_KEY] while the inputs are empty', async () => {
    open();

    await waitFor(
      () =>
        expect(urlBox('Ethereum Mainnet').value).toBe(
          `${API}/api/v1.0/rpc/ethereum/mainnet?x-api-key-id=[API_KEY_ID]&x-api-key=[API_KEY]`,
        ),
      slow,
    );
    expect(urlBox('Polygon Testnet').value).toBe(
      `${API}/api/v1.0/rpc/polygon/amoy?x-api-key-id=[API_KEY_ID]&x-api-key=[API_KEY]`,
    );
  });

  it('builds every URL live from the typed key id and key, and puts a placeholder back when one is cleared', async () => {
    open();
    await configLoaded();

    type('API key ID', 'key-7');
    expect(urlBox('BSC Testnet').value).toBe(`${API}/api/v1.0/rpc/bsc/testnet?x-api-key-id=key-7&x-api-key=[API_KEY]`);
    type('API key', 's3cret');
    for (const [name, path] of NETWORKS) {
      expect(urlBox(name).value).toBe(`${API}/api/v1.0/rpc/${path}?x-api-key-id=key-7&x-api-key=s3cret`);
    }

    type('API key ID', '');
    expect(urlBox('Aurora Mainnet').value).toBe(
      `${API}/api/v1.0/rpc/aurora/mainnet?x-api-key-id=[API_KEY_ID]&x-api-key=s3cret`,
    );
    // The key stays in the page: nothing goes to browser storage.
    expect(JSON.stringify({ ...localStorage, ...sessionStorage })).not.toContain('s3cret');
  });

  it("copies a row's URL and says so", async () => {
    const writeText = stubClipboard();
    open();
    await configLoaded();
    type('API key ID', 'key-7');
    type('API key', 's3cret');

    const row = screen.getAllByRole('listitem')[1] as HTMLElement;
    fireEvent.click(within(row).getByLabelText('Copy'));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Text has been copied to clipboard.'));
    expect(writeText).toHaveBeenCalledWith(`${API}/api/v1.0/rpc/ethereum/sepolia?x-api-key-id=key-7&x-api-key=s3cret`);
  });

  it('uses the address of the page when the configuration names no API base', async () => {
    open('');

    await waitFor(
      () =>
        expect(urlBox('Ethereum Mainnet').value).toBe(
          `${window.location.origin}/api/v1.0/rpc/ethereum/mainnet?x-api-key-id=[API_KEY_ID]&x-api-key=[API_KEY]`,
        ),
      slow,
    );
  });

  it('opens the documentation in a new tab', async () => {
    const openWindow = vi.spyOn(window, 'open').mockReturnValue(null);
    open();
    const docs = screen.getByRole('button', { name: /Documentation/ });
    await waitFor(() => expect((docs as HTMLButtonElement).disabled).toBe(false), slow);

    fireEvent.click(docs);

    expect(openWindow).toHaveBeenCalledWith(DOCS, '_blank', 'noopener,noreferrer');
    openWindow.mockRestore();
  });

  it('shows each network’s WebSocket URL under the HTTP ones, live from the key, with its copy button', async () => {
    const writeText = stubClipboard();
    open();
    await configLoaded();
    const wsBox = (name: string) => screen.getByLabelText(`${name} WebSocket URL`) as HTMLTextAreaElement;
    expect(wsBox('Ethereum Mainnet').value).toBe(
      'wss://api.example.com/api/v1.0/rpc/ethereum/mainnet/ws?x-api-key-id=[API_KEY_ID]&x-api-key=[API_KEY]',
    );
    type('API key ID', 'key-7');
    type('API key', 's3cret');
    for (const [name, path] of NETWORKS) {
      expect(wsBox(name).value).toBe(
        `wss://api.example.com/api/v1.0/rpc/${path}/ws?x-api-key-id=key-7&x-api-key=s3cret`,
      );
      expect(wsBox(name).readOnly).toBe(true);
    }
    // The spec's ten rows stay as they were: one URL box each.
    expect(screen.getAllByRole('listitem')).toHaveLength(10);
    fireEvent.click(screen.getAllByRole('button', { name: 'Copy WebSocket URL' })[2] as HTMLElement);
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith(
        'wss://api.example.com/api/v1.0/rpc/bsc/mainnet/ws?x-api-key-id=key-7&x-api-key=s3cret',
      ),
    );
  });

  it('shows each network’s state beside its name, with its head and its age on hover', async () => {
    open(
      API,
      on(endpoints.rpc.status, () =>
        wrapped(
          allNetworks({
            'ethereum/sepolia': { status: 'degraded', head: 7_000_123, headAgeSeconds: 4 },
            'bsc/testnet': { status: 'down', head: null, headAgeSeconds: null },
          }),
        ),
      ),
    );

    const rows = screen.getAllByRole('listitem');
    await waitFor(() => expect(within(rows[1] as HTMLElement).getByText('Degraded')).toBeTruthy(), slow);
    expect(rows.map((row) => row.querySelector('.ant-tag:not(.ant-tag-blue)')?.textContent)).toEqual([
      'Operational',
      'Degraded',
      'Operational',
      'Down',
      ...Array(6).fill('Operational'),
    ]);

    fireEvent.mouseEnter(within(rows[1] as HTMLElement).getByText('Degraded'));
    expect((await screen.findByRole('tooltip')).textContent).toBe('Block 7,000,123, 4 s ago');
    // The tag is reached with Tab too, and says the same on focus.
    const down = within(rows[3] as HTMLElement).getByText('Down');
    expect(down.tabIndex).toBe(0);
    fireEvent.focus(down);
    await waitFor(() =>
      expect(screen.getAllByRole('tooltip').map((tooltip) => tooltip.textContent)).toContain('No block read yet'),
    );
  });

  it('shows the endpoints without a state, and no error, when the status cannot be read', async () => {
    const status = on(endpoints.rpc.status, () => failed(503, 'Down for maintenance.', 'Service Unavailable'));
    open(API, status);
    await configLoaded();

    expect(screen.getAllByRole('listitem')).toHaveLength(10);
    expect(screen.queryByText('Operational')).toBeNull();
    expect(screen.queryByText(/Down for maintenance/)).toBeNull();
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('goes to the API Keys page from Create New Key, asking it to open its create dialog', async () => {
    open();

    fireEvent.click(screen.getByRole('button', { name: /Create New Key/ }));

    expect(await screen.findByText(`Elsewhere: /account/${ACCOUNT}/apiKeys`)).toBeTruthy();
  });
});
