import { endpoints, type ResourceUsageRecord, RPC_NETWORKS, type RpcPricing } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
import { PricingPage } from './pricing-page';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const { list } = endpoints.usage;

/** Ethereum Mainnet at $20 per million CU, Polygon Mainnet at $0.35, the others at $20; forwards at $0.05. */
const pricing: RpcPricing = {
  networks: RPC_NETWORKS.map((n) => ({
    network: n.path,
    resourceName: n.resource,
    usdPerMillionCu: n.path === 'polygon/mainnet' ? '0.35' : '20',
  })),
  methods: [
    { method: 'eth_chainId', computeUnits: 0, priceClass: 'free' },
    { method: 'eth_call', computeUnits: 1, priceClass: 'read' },
    { method: 'eth_getLogs', computeUnits: 5, priceClass: 'logs' },
    { method: 'eth_sendRawTransaction', computeUnits: 10, priceClass: 'send' },
    { method: 'trace_*', computeUnits: 50, priceClass: 'trace' },
    { method: 'debug_trace*', computeUnits: 50, priceClass: 'trace' },
  ],
  classes: [
    { name: 'free', computeUnits: 0 },
    { name: 'read', computeUnits: 1 },
    { name: 'logs', computeUnits: 5 },
    { name: 'override', computeUnits: 6 },
    { name: 'send', computeUnits: 10 },
    { name: 'trace', computeUnits: 50 },
    { name: 'subscription', computeUnits: 1 },
    { name: 'notification', computeUnits: 2 },
  ],
  cachedComputeUnits: 0,
  forwardingFeeUsd: '0.05',
};

let next = 0;
const record = (resourceName: string, usage: number, computeUnits: number | null, price: number) =>
  ({
    id: `u${++next}`,
    resourceName,
    date: '2026-11-20',
    usage,
    computeUnits,
    status: 'BILLED',
    price,
    unitPrice: computeUnits === null ? 0.05 : price / computeUnits,
    apiKeyId: null,
  }) satisfies ResourceUsageRecord;

/** Two pages of the last 30 days: three RPC records, then two token forwards past the first 1000. */
function usagePages(offset: string) {
  const records =
    offset === '0'
      ? [
          record('RPC_API_ETHEREUM_MAINNET', 1_000_000, 1_234_567, 24.69134),
          record('RPC_API_POLYGON_MAINNET', 10, 10, 0.0000035),
          record('RPC_API_POLYGON_MAINNET', 3, 3, 0.00000105),
        ]
      : [record('TOKEN_FORWARDING_ETHEREUM_MAINNET', 2, null, 0.1)];
  return wrapped({ accountResourceUsage: records, totalCount: 1001 });
}

function open(pricingReply: () => Reply<RpcPricing> = () => wrapped(pricing), ...first: EndpointStub[]) {
  const calls = serveEndpoints(
    ...first,
    on(endpoints.rpc.pricing, pricingReply),
    on(list, ({ query }) => usagePages(query.offset ?? '0')),
  );
  renderPage(`/account/${ACCOUNT}/services/pricing`, '/account/:accountId/services/pricing', <PricingPage />);
  return calls;
}

const card = async (title: string) =>
  (await screen.findByText(title, { selector: '.ant-card-head-title' })).closest('.ant-card') as HTMLElement;
const cells = (row: HTMLElement) => [...row.querySelectorAll('td')].map((td) => td.textContent);
const item = (scope: HTMLElement, label: string) =>
  within(scope).getByText(label, { selector: '.ant-descriptions-item-label span' }).closest('th')?.nextElementSibling
    ?.textContent;
const methodRows = (scope: HTMLElement) =>
  [...scope.querySelectorAll('tr.ant-table-row')].map((row) => row.querySelector('td')?.textContent);

setUpPageTests();

describe('PricingPage', () => {
  it('lists each network by name with its resource and USD per million CU, the forwarding fee and the rules', async () => {
    open();
    expect(screen.getByRole('heading', { name: 'Pricing', level: 2 })).toBeTruthy();

    const networks = await card('Networks');
    const ethereum = (await within(networks).findByText('Ethereum Mainnet')).closest('tr') as HTMLElement;
    expect(cells(ethereum)).toEqual(['Ethereum Mainnet', 'RPC API ETHEREUM MAINNET', '20']);
    const polygon = within(networks).getByText('Polygon Mainnet').closest('tr') as HTMLElement;
    expect(cells(polygon)).toEqual(['Polygon Mainnet', 'RPC API POLYGON MAINNET', '0.35']);
    expect(within(networks).getAllByRole('row')).toHaveLength(11);
    expect(within(networks).getByText('Token forwarding: 0.05 USD per forward.')).toBeTruthy();

    const rules = [...(await card('How calls are counted')).querySelectorAll('li')].map((li) => li.textContent);
    expect(rules).toEqual([
      "A call costs its compute units × its network's USD per million CU ÷ 1,000,000.",
      'A batch costs the sum of its calls.',
      'eth_getLogs and eth_getFilterLogs cost 5 CU per started 1,000 blocks of their range, at most 10× (50 CU).',
      'eth_call, eth_estimateGas and eth_createAccessList with state or block overrides cost the override class: 6 CU.',
      "A subscription's notification, and an eth_getFilterChanges answer, cost 2 CU per started KiB delivered.",
      'A method the table below does not list costs the trace class: 50 CU.',
      "Refused calls cost nothing: those a key's rules or limits turn away, or the gateway cannot read.",
      "A call answered from the gateway's cache costs 0 CU.",
    ]);
  });

  it('finds a method by part of its name, and the namespace that prices a method typed in full', async () => {
    open();
    const methods = await card('Methods');
    await within(methods).findByText('eth_getLogs');
    const search = within(methods).getByRole('searchbox', { name: 'Search methods' });

    fireEvent.change(search, { target: { value: 'getlogs' } });
    await waitFor(() => expect(methodRows(methods)).toEqual(['eth_getLogs']));
    const logs = within(methods).getByText('eth_getLogs').closest('tr') as HTMLElement;
    expect(cells(logs)).toEqual(['eth_getLogs', '5 per 1,000 blocks', 'logs']);

    fireEvent.change(search, { target: { value: 'debug_traceTransaction' } });
    await waitFor(() => expect(methodRows(methods)).toEqual(['debug_trace*']));
    expect(cells(within(methods).getByText('debug_trace*').closest('tr') as HTMLElement)).toEqual([
      'debug_trace*',
      '50',
      'trace',
    ]);
    expect(within(methods).getByRole('status').textContent).toBe('debug_traceTransaction is priced as debug_trace*.');

    fireEvent.change(search, { target: { value: 'nothing_here' } });
    expect(
      await within(methods).findByText('No method or namespace of that name: such a method costs the trace class.'),
    ).toBeTruthy();
    expect(within(methods).getByRole('status').textContent).toBe('');
  });

  it('estimates the last 30 days at today’s prices, exactly, from every page of the account’s usage', async () => {
    const calls = open();
    const estimate = await card('What would my last 30 days cost');

    const cost = await within(estimate).findByTestId('pricing-estimate');
    // 24.69134 + 0.0000035 + 0.00000105 + 2 × 0.05: to the cent, and every digit of it.
    expect(cost.textContent).toBe('$24.79 (24.79134455 USD)');
    expect(item(estimate, 'Estimated cost')).toBe('$24.79 (24.79134455 USD)');
    expect(item(estimate, 'Calls')).toBe('1,000,013');
    expect(item(estimate, 'Compute units')).toBe('1,234,580');
    expect(item(estimate, 'Token forwards')).toBe('2');

    const now = Date.now();
    const dateEnd = new Date(now).toISOString().slice(0, 10);
    const dateStart = new Date(now - 29 * 86_400_000).toISOString().slice(0, 10);
    expect(item(estimate, 'Period')).toBe(`${dateStart} to ${dateEnd} (UTC)`);
    const queries = callsTo(calls, list).map((call) => call.query);
    expect(queries).toEqual([
      { accountId: ACCOUNT, dateStart, dateEnd, limit: '1000', offset: '0', order: 'desc' },
      { accountId: ACCOUNT, dateStart, dateEnd, limit: '1000', offset: '1000', order: 'desc' },
    ]);
    expect(callsTo(calls, list)[0]?.headers['ebs-account-id']).toBe(ACCOUNT);
    expect(within(estimate).queryByText(/left out/)).toBeNull();
  });

  it('says when the prices cannot be read, and reads them again on Try again', async () => {
    let answer: Reply<RpcPricing> = failed(503, 'The service is busy, please try again later.', 'Service Unavailable');
    const calls = open(() => answer);

    const networks = await card('Networks');
    expect(await within(networks).findByText(/The service is busy, please try again later\./)).toBeTruthy();
    answer = wrapped(pricing);
    fireEvent.click(within(networks).getByRole('button', { name: /Try again/ }));

    expect(await within(networks).findByText('Ethereum Mainnet')).toBeTruthy();
    expect(await screen.findByTestId('pricing-estimate')).toBeTruthy();
    expect(callsTo(calls, endpoints.rpc.pricing)).toHaveLength(2);
  });
});
