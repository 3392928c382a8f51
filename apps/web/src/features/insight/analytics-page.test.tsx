import {
  endpoints,
  type MethodSeries,
  type MethodStat,
  NOTIFY_RESOURCES,
  type ResourceUsageRecord,
} from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ChartOption } from '../../components/echart';
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
import { AnalyticsPage } from './analytics-page';

vi.mock('../../components/echart', () => ({
  EChart: ({ option }: { option: ChartOption }) => {
    const series = [option.series ?? []].flat() as Array<{ name?: string }>;
    return <div data-testid="chart">{series.map((s) => s.name).join(',')}</div>;
  },
}));

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const { methods, methodSeries, list: usageList } = endpoints.usage;
const { list: listKeys } = endpoints.keys;

const stat = (patch: Partial<MethodStat>): MethodStat => ({
  method: 'eth_call',
  network: 'ethereum/mainnet',
  calls: 10,
  errors: 0,
  refused: 0,
  computeUnits: 10,
  p50Ms: 1.5,
  p95Ms: 9.2,
  ...patch,
});

const today = new Date().toISOString().slice(0, 10);
const series = (methodsCalled: MethodStat[]): MethodSeries => ({
  interval: 'day',
  points: methodsCalled.map((m) => ({
    time: `${today}T00:00:00.000Z`,
    method: m.method,
    calls: m.calls,
    errors: m.errors,
    refused: m.refused,
    computeUnits: m.computeUnits,
  })),
  latency: methodsCalled.length ? [{ time: `${today}T00:00:00.000Z`, p50Ms: 1.5, p95Ms: 9.2 }] : [],
});

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

const delivered = (resourceName: string, date: string, usage: number): ResourceUsageRecord => ({
  id: `${resourceName}-${date}`,
  resourceName,
  date,
  usage,
  computeUnits: null,
  status: 'PENDING',
  price: usage * 0.0001,
  unitPrice: 0.0001,
  apiKeyId: null,
});

function open(rows: MethodStat[], reply?: Reply<{ methods: MethodStat[] }>, deliveries: ResourceUsageRecord[] = []) {
  const calls = serveEndpoints(
    on(listKeys, () =>
      wrapped({
        apiKeys: [
          {
            id: 'k1',
            apiKeyId: '22222222-2222-4222-8222-222222222222',
            name: 'Main',
            apiKeyName: 'Main',
            status: 'ACTIVE' as const,
            createdAt: '2026-11-01T00:00:00Z',
            updatedAt: '2026-11-01T00:00:00Z',
          },
        ],
        offset: 0,
        limit: 100,
        total: 1,
        count: 1,
      }),
    ),
    on(methods, () => reply ?? wrapped({ methods: rows })),
    on(methodSeries, () => wrapped(series(rows))),
    on(usageList, () => wrapped({ accountResourceUsage: deliveries, totalCount: deliveries.length })),
  );
  renderPage(`/account/${ACCOUNT}/services/analytics`, '/account/:accountId/services/analytics', <AnalyticsPage />);
  return calls;
}

async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: label }));
  const choice = await waitFor(() => {
    const found = [...document.querySelectorAll('.ant-select-item-option')].find((o) => o.textContent === option);
    expect(found).toBeTruthy();
    return found as HTMLElement;
  });
  fireEvent.click(choice);
}

setUpPageTests();

describe('AnalyticsPage', () => {
  it('shows each method’s calls, errors, error rate and p95, most called first, with the three charts', async () => {
    const calls = open([
      stat({ method: 'eth_chainId', calls: 3, computeUnits: 0 }),
      stat({ method: 'eth_getBalance', calls: 1, errors: 1, p95Ms: 120, computeUnits: 1 }),
      stat({ method: 'eth_gasPrice', calls: 4, refused: 4, computeUnits: 0 }),
      stat({ method: 'eth_blockNumber', calls: 2, computeUnits: 2 }),
    ]);
    const first = (await screen.findByText('eth_chainId', { selector: 'td' })).closest('tr') as HTMLElement;
    expect([...first.querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      'eth_chainId',
      'Ethereum Mainnet',
      '3',
      '0',
      '0',
      '0%',
      '0',
      '9.2',
    ]);
    // Calls the key's rule refused are counted apart: not errors of the method, nor in its error rate.
    const refused = screen.getByText('eth_gasPrice', { selector: 'td' }).closest('tr') as HTMLElement;
    expect([...refused.querySelectorAll('td')].map((td) => td.textContent).slice(2, 7)).toEqual([
      '4',
      '0',
      '0',
      '0%',
      '4',
    ]);
    const rows = [...document.querySelectorAll('tr.ant-table-row')].map((tr) => tr.querySelector('td')?.textContent);
    expect(rows).toEqual(['eth_gasPrice', 'eth_chainId', 'eth_blockNumber', 'eth_getBalance']);
    const failing = screen.getByText('eth_getBalance', { selector: 'td' }).closest('tr') as HTMLElement;
    expect(within(failing).getByText('100%')).toBeTruthy();
    const charts = await screen.findAllByTestId('chart');
    expect(charts.map((c) => c.textContent)).toEqual([
      'eth_gasPrice,eth_chainId,eth_blockNumber,eth_getBalance',
      'Error rate',
      'p50,p95',
    ]);
    // The last 7 days by default.
    expect(callsTo(calls, methods)[0]?.query).toMatchObject({ dateEnd: today });
  });

  it('shows each method’s compute units beside its calls, and sorts by them', async () => {
    open([
      stat({ method: 'eth_getLogs', calls: 2, computeUnits: 12_500 }),
      stat({ method: 'eth_call', calls: 40, computeUnits: 40 }),
      stat({ method: 'debug_traceTransaction', calls: 3, computeUnits: 150 }),
    ]);
    const logs = (await screen.findByText('eth_getLogs', { selector: 'td' })).closest('tr') as HTMLElement;
    const titles = [...document.querySelectorAll('th')].map((th) => th.textContent);
    expect(titles.slice(0, 4)).toEqual(['Method', 'Network', 'Calls', 'Compute units']);
    expect([...logs.querySelectorAll('td')].map((td) => td.textContent).slice(2, 4)).toEqual(['2', '12,500']);

    const header = [...document.querySelectorAll('th')].find((th) => th.textContent === 'Compute units') as HTMLElement;
    fireEvent.click(header);
    await waitFor(() =>
      expect(
        [...document.querySelectorAll('tr.ant-table-row')].map((tr) => tr.querySelector('td')?.textContent),
      ).toEqual(['eth_call', 'debug_traceTransaction', 'eth_getLogs']),
    );
  });

  it('asks again with the key, network and range chosen', async () => {
    const calls = open([stat({})]);
    await screen.findByText('eth_call', { selector: 'td' });
    await choose('Network', 'Polygon Mainnet');
    await waitFor(() => expect(callsTo(calls, methods).at(-1)?.query).toMatchObject({ network: 'polygon/mainnet' }));
    await choose('API key', 'Main');
    await waitFor(() =>
      expect(callsTo(calls, methods).at(-1)?.query).toMatchObject({ apiKeyId: '22222222-2222-4222-8222-222222222222' }),
    );
    await choose('Range', 'Last 24 Hours');
    await waitFor(() => expect(callsTo(calls, methodSeries).at(-1)?.query).toMatchObject({ hours: '24' }));
    expect(callsTo(calls, methodSeries).at(-1)?.query.dateStart).toBeUndefined();
  });

  it('says when nothing was called, and offers a retry when the figures fail to load', async () => {
    open([], failed(500, 'Internal error'));
    expect(await screen.findAllByText(/No calls in this range yet/)).not.toHaveLength(0);
    expect(await screen.findByRole('button', { name: /Try again/ })).toBeTruthy();
  });

  it('shows the webhook deliveries of the range per network, summed over its days, the busiest first', async () => {
    const calls = open([], undefined, [
      delivered('NOTIFY_POLYGON_MAINNET', today, 1),
      delivered('NOTIFY_ETHEREUM_SEPOLIA', today, 3),
      delivered('NOTIFY_ETHEREUM_SEPOLIA', daysAgo(2), 1_200),
    ]);
    const card = await screen.findByTestId('webhook-deliveries-usage');
    await waitFor(() =>
      expect([...card.querySelectorAll('tr.ant-table-row')].map((tr) => tr.textContent)).toEqual([
        'Ethereum Sepolia1,203',
        'Polygon Mainnet1',
      ]),
    );
    expect(within(card).getByRole('link', { name: 'Webhooks' }).getAttribute('href')).toBe(
      `/account/${ACCOUNT}/services/webhooks`,
    );
    // Only the webhook delivery resources, over the 7 days of the default range.
    expect(callsTo(calls, usageList)[0]?.query).toMatchObject({
      resourceNameIn: JSON.stringify(NOTIFY_RESOURCES),
      dateStart: daysAgo(6),
      dateEnd: today,
    });
    // Usage is counted per UTC day: the last 24 hours take the two days they cross.
    await choose('Range', 'Last 24 Hours');
    await waitFor(() =>
      expect(callsTo(calls, usageList).at(-1)?.query).toMatchObject({ dateStart: daysAgo(1), dateEnd: today }),
    );
  });

  it('says when no webhook delivered in the range', async () => {
    open([]);
    const card = await screen.findByTestId('webhook-deliveries-usage');
    expect(await within(card).findByText('No webhook deliveries in this range.')).toBeTruthy();
  });
});
