import { endpoints, RPC_NETWORKS, type RpcStatus } from '@ebs/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  callsTo,
  type EndpointStub,
  failed,
  on,
  type Reply,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { StatusPage } from './status-page';
import { allNetworks, lastDay } from './status-test-kit';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';

function open(...stubs: EndpointStub[]) {
  const calls = serveEndpoints(...stubs);
  renderPage(`/account/${ACCOUNT}/services/status`, '/account/:accountId/services/status', <StatusPage />);
  return calls;
}

/** The row of the network named `name`. */
const row = (name: string) => screen.getByRole('heading', { name, level: 3 }).closest('.ant-list-item') as HTMLElement;

setUpPageTests();

describe('StatusPage', () => {
  it('lists the ten networks by name with their state, head and share of calls answered', async () => {
    // Ethereum Mainnet: 12 hours all answered, 11 at 98 %, one without calls: (12 + 11 × 0.98) / 23.
    const mixed = lastDay([null, ...Array(11).fill(0.98)]);
    open(
      on(endpoints.rpc.status, () =>
        wrapped(
          allNetworks({
            'ethereum/mainnet': { head: 19_000_000, headAgeSeconds: 4, lastDay: mixed },
            'ethereum/sepolia': { status: 'degraded', head: 7_000_123, headAgeSeconds: 125 },
            'bsc/mainnet': { status: 'down', head: null, headAgeSeconds: null, lastDay: lastDay(Array(24).fill(null)) },
          }),
        ),
      ),
    );

    expect(screen.getByRole('heading', { name: 'Status', level: 2 })).toBeTruthy();
    await screen.findByText('Block 19,000,000, 4 s ago');
    expect(screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual(
      RPC_NETWORKS.map((network) => network.name),
    );

    const mainnet = within(row('Ethereum Mainnet'));
    expect(mainnet.getByText('Operational')).toBeTruthy();
    expect(mainnet.getByText('99.04% of calls answered in the last 24 hours')).toBeTruthy();
    expect(mainnet.getAllByRole('img')).toHaveLength(24);
    expect(mainnet.getByRole('img', { name: '00:00 UTC: No calls' }).className).toContain('hour-cell-none');
    expect(mainnet.getByRole('img', { name: '01:00 UTC: 98% answered' }).className).toContain('hour-cell-poor');
    expect(mainnet.getByRole('img', { name: '23:00 UTC: 100% answered' }).className).toContain('hour-cell-good');

    const sepolia = within(row('Ethereum Sepolia'));
    expect(sepolia.getByText('Degraded')).toBeTruthy();
    expect(sepolia.getByText('Block 7,000,123, 2 min ago')).toBeTruthy();
    expect(sepolia.getByText('100% of calls answered in the last 24 hours')).toBeTruthy();

    const bsc = within(row('BSC Mainnet'));
    expect(bsc.getByText('Down')).toBeTruthy();
    expect(bsc.getByText('No block read yet')).toBeTruthy();
    expect(bsc.getByText('No calls in the last 24 hours')).toBeTruthy();
    expect(bsc.getByRole('list', { name: 'BSC Mainnet, the last 24 hours' })).toBeTruthy();
  });

  it('shows an hour’s share in a tooltip with the same words as its accessible name', async () => {
    open(on(endpoints.rpc.status, () => wrapped(allNetworks({ 'polygon/amoy': { lastDay: lastDay([0.9995]) } }))));

    await screen.findByRole('heading', { name: 'Polygon Testnet' });
    fireEvent.mouseEnter(within(row('Polygon Testnet')).getByRole('img', { name: '00:00 UTC: 99.95% answered' }));

    expect((await screen.findByRole('tooltip')).textContent).toBe('00:00 UTC: 99.95% answered');
  });

  it('asks again every 15 seconds while it shows, and shows the new state', async () => {
    // The clock still runs (antd and the fetch stand-in need it); the test only moves it on 15 s.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let answer = wrapped(allNetworks());
      const calls = open(on(endpoints.rpc.status, () => answer));
      await screen.findByRole('heading', { name: 'Aurora Testnet' });
      expect(within(row('Aurora Testnet')).getByText('Operational')).toBeTruthy();
      expect(callsTo(calls, endpoints.rpc.status)).toHaveLength(1);

      answer = wrapped(allNetworks({ 'aurora/testnet': { status: 'down' } }));
      await act(() => vi.advanceTimersByTimeAsync(15_000));

      await waitFor(() => expect(within(row('Aurora Testnet')).getByText('Down')).toBeTruthy());
      expect(callsTo(calls, endpoints.rpc.status)).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says when the status cannot be read, and reads it again on Try again', async () => {
    let answer: Reply<RpcStatus> = failed(503, 'The service is busy, please try again later.', 'Service Unavailable');
    const calls = open(on(endpoints.rpc.status, () => answer));

    expect(await screen.findByText(/The service is busy, please try again later\./)).toBeTruthy();
    answer = wrapped(allNetworks());
    fireEvent.click(screen.getByRole('button', { name: /Try again/ }));

    await waitFor(() => expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(10));
    expect(callsTo(calls, endpoints.rpc.status)).toHaveLength(2);
  });
});
