import {
  DEFAULT_USAGE_RESOURCES,
  endpointList,
  endpoints,
  type ResourceUsageList,
  type ResourceUsageRecord,
  type Transaction,
  type UsageResource,
} from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import { accountDetails } from '../../testing/account-details';
import {
  callsTo,
  type EndpointCall,
  type FetchCall,
  failed,
  on,
  type Reply,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import type { ChartOption } from './chart-option';
import { OverviewPage } from './overview-page';

// jsdom has no canvas: the chart shows the option it was given as data.
vi.mock('../../components/echart', () => ({
  EChart: ({ option }: { option: ChartOption }) => {
    const series = (option.series as Array<{ name: string; data: number[] }>).map((s) => ({
      name: s.name,
      data: s.data,
    }));
    const selected = (option.legend as { selected?: Record<string, boolean> }).selected ?? {};
    const off = Object.keys(selected).filter((name) => !selected[name]);
    return (
      <pre data-testid="chart">{JSON.stringify({ x: (option.xAxis as { data: string[] }).data, series, off })}</pre>
    );
  },
}));

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const POLYGON = 'RPC_API_POLYGON_MAINNET';
const ETHEREUM = 'RPC_API_ETHEREUM_MAINNET';
const FORWARDING = 'TOKEN_FORWARDING_POLYGON_MAINNET';

const details = accountDetails({ id: ACCOUNT, name: 'Ops', balance: 25.5, amountPending: 0.5 });
const resources: UsageResource[] = [POLYGON, ETHEREUM, FORWARDING].map((resourceName) => ({
  resourceName,
  description: resourceName,
  unitPrice: 0.00002,
}));

let next = 0;
const usage = (resourceName: string, date: string, requests: number): ResourceUsageRecord => ({
  id: `u${++next}`,
  resourceName,
  date,
  usage: requests,
  status: 'PENDING',
  price: requests * 0.00002,
  unitPrice: 0.00002,
  computeUnits: requests,
  apiKeyId: `k${next}`,
});

const { list: usageList, listResources } = endpoints.usage;
const { listTransactions } = endpoints.billing;
type UsageCall = EndpointCall<typeof usageList>;

const chartCalls = (calls: FetchCall[]) => callsTo(calls, usageList).filter((c) => c.query.order === 'asc');

/** Answers a usage page of `records` (already filtered by the test) as the server would. */
function usagePage(call: UsageCall, records: ResourceUsageRecord[]): Reply<ResourceUsageList> {
  const offset = Number(call.query.offset);
  const limit = Number(call.query.limit);
  return wrapped({ accountResourceUsage: records.slice(offset, offset + limit), totalCount: records.length });
}

interface Server {
  resources?: () => Reply<UsageResource[]> | Promise<Reply<UsageResource[]>>;
  transactions?: Transaction[];
  monthUsage?: ResourceUsageRecord[];
  chartUsage?: (call: UsageCall) => ResourceUsageRecord[];
}

function open(server: Server = {}) {
  const calls = serveEndpoints(
    on(endpoints.accounts.details, () => wrapped(details)),
    on(listResources, () => server.resources?.() ?? wrapped(resources)),
    on(listTransactions, () => {
      const transactions = server.transactions ?? [];
      return wrapped({ transactions, totalCount: transactions.length });
    }),
    on(usageList, (call) =>
      call.query.order === 'desc'
        ? usagePage(call, server.monthUsage ?? [])
        : usagePage(call, server.chartUsage?.(call) ?? []),
    ),
  );
  renderPage(`/account/${ACCOUNT}/overview`, '/account/:accountId/overview', <OverviewPage />);
  return calls;
}

const cardOf = (title: string) => screen.getByText(title).closest('.ant-card') as HTMLElement;
const chartOf = async (title: string) => {
  const chart = await within(await screen.findByText(title).then(() => cardOf(title))).findByTestId('chart');
  return JSON.parse(chart.textContent ?? '') as {
    x: string[];
    series: Array<{ name: string; data: number[] }>;
    off: string[];
  };
};
/** The figure a summary card shows, once it is no longer '-'. */
const statistic = (title: string) =>
  waitFor(() => {
    const text = cardOf(title).querySelector('.ant-statistic-content')?.textContent;
    expect(text).toBeTruthy();
    expect(text).not.toBe('-');
    return text;
  });
const pickerInputs = (title: string) => within(cardOf(title)).getAllByRole('textbox') as HTMLInputElement[];

setUpPageTests();

beforeEach(() => {
  // Saturday 21 November 2026, mid-morning; only Date is faked so antd's timers run as usual.
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(new Date(2026, 10, 21, 10, 30));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('OverviewPage summary cards', () => {
  it('shows the available credits, the monthly bill and the monthly API calls of this month', async () => {
    const withdrawals = [-1.1, -2.2, ...Array.from({ length: 250 }, () => -0.00002)].map((amount, i) => ({
      id: `t${i}`,
      type: 'WITHDRAW_RESOURCE_USAGE',
      amount,
      status: 'COMPLETED',
      createdAt: '2026-11-02T10:00:00.000Z',
      updatedAt: '2026-11-02T10:00:00.000Z',
      metadata: {},
    }));
    const calls = open({
      transactions: withdrawals,
      monthUsage: [
        { ...usage(POLYGON, '2026-11-02', 1200), status: 'BILLED' },
        usage(ETHEREUM, '2026-11-20', 34),
        { ...usage('TOKEN_FORWARDING_ETHEREUM_MAINNET', '2026-11-20', 1), price: 0.05, unitPrice: 0.05 },
      ],
    });

    expect(await statistic('Available Credits (USD)')).toBe('25.00');
    expect(screen.getByRole('heading', { name: 'Overview', level: 2 })).toBeTruthy();
    expect(await statistic('Monthly Bill')).toBe('3.31USD');
    // The requests, not the token forward; each card says what it counts and what has not posted yet.
    expect(await statistic('Monthly API Calls')).toBe('1,234');
    expect(
      within(cardOf('Monthly API Calls')).getByText(/RPC requests metered this month \(UTC\), as billed/),
    ).toBeTruthy();
    expect(await within(cardOf('Monthly API Calls')).findByText(/Token forwards, counted apart: 1\./)).toBeTruthy();
    expect(within(cardOf('Monthly Bill')).getByText(/The usage posted to the ledger this month/)).toBeTruthy();
    // 34 × 0.00002 + 0.05 = 0.05068 is pending; the 1200 requests are posted (in the 3.31).
    expect(within(cardOf('Monthly Bill')).getByText(/Not yet posted: 0\.05068 USD\./)).toBeTruthy();

    expect(callsTo(calls, listTransactions)[0]?.query).toEqual({
      limit: '1000',
      offset: '0',
      dateStart: '2026-11-01',
      dateEnd: '2026-11-21',
      typeIn: '["WITHDRAW_RESOURCE_USAGE"]',
    });
    const monthCalls = callsTo(calls, usageList).find((c) => c.query.order === 'desc');
    expect(monthCalls?.query).toEqual({
      accountId: ACCOUNT,
      dateStart: '2026-11-01',
      dateEnd: '2026-11-21',
      limit: '1000',
      offset: '0',
      order: 'desc',
    });
  });

  it('shows 0.00 and 0 for a month without usage', async () => {
    open();
    expect(await statistic('Monthly Bill')).toBe('0.00USD');
    expect(await statistic('Monthly API Calls')).toBe('0');
  });

  it('shows the error of a failed summary call, and each card offers Try again, which loads its figure', async () => {
    let resting = true;
    // While resting, every call fails; then the resource list is left unanswered (a 404).
    serveEndpoints(
      ...endpointList().map(({ endpoint }) =>
        on(endpoint, () => (resting ? failed(503, 'Usage is resting') : undefined)),
      ),
      on(endpoints.accounts.details, () => wrapped(details)),
      on(listTransactions, () => wrapped({ transactions: [], totalCount: 0 })),
      on(usageList, (call) => usagePage(call, [])),
    );
    renderPage(`/account/${ACCOUNT}/overview`, '/account/:accountId/overview', <OverviewPage />);
    await waitFor(() =>
      expect(vi.mocked(toast.error).mock.calls.map(([e]) => (e as Error).message)).toContain('Usage is resting'),
    );
    const titles = ['Available Credits (USD)', 'Monthly Bill', 'Monthly API Calls'];
    for (const title of titles) {
      await within(cardOf(title)).findByRole('button', { name: /Try again/ });
      expect(within(cardOf(title)).getByText(/Usage is resting/)).toBeTruthy();
    }

    resting = false;
    for (const title of titles) fireEvent.click(within(cardOf(title)).getByRole('button', { name: /Try again/ }));
    expect(await statistic('Available Credits (USD)')).toBe('25.00');
    expect(await statistic('Monthly Bill')).toBe('0.00USD');
    expect(await statistic('Monthly API Calls')).toBe('0');
    for (const title of titles) expect(within(cardOf(title)).queryByRole('button', { name: /Try again/ })).toBeNull();
  });
});

describe('OverviewPage charts', () => {
  it('charts the last 7 days up to today by default, every day filled, records of a day and resource summed', async () => {
    const calls = open({
      chartUsage: () => [
        usage(POLYGON, '2026-11-15', 2),
        usage(POLYGON, '2026-11-15', 3),
        usage(ETHEREUM, '2026-11-21', 1),
        usage(FORWARDING, '2026-11-18', 4),
      ],
    });

    const service = await chartOf('Service Usage');
    expect(service.x).toEqual(['Nov. 15', 'Nov. 16', 'Nov. 17', 'Nov. 18', 'Nov. 19', 'Nov. 20', 'Nov. 21']);
    // Token forwarding resources are not charted as service usage.
    expect(service.series).toEqual([
      { name: 'Polygon Mainnet requests', data: [5, 0, 0, 0, 0, 0, 0] },
      { name: 'Ethereum Mainnet requests', data: [0, 0, 0, 0, 0, 0, 1] },
    ]);
    const billing = await chartOf('Account Billing');
    expect(billing.series.map((s) => s.name)).toEqual([
      'Polygon Mainnet requests',
      'Ethereum Mainnet requests',
      'Polygon Mainnet token forwards',
    ]);
    // 2 and 3 requests at 0.00002 cost 0.0001 together, not 0.00010000000000000002.
    expect(billing.series[0]?.data).toEqual([0.0001, 0, 0, 0, 0, 0, 0]);

    expect(pickerInputs('Service Usage').map((input) => input.value)).toEqual(['2026-11-15', '2026-11-21']);
    expect(pickerInputs('Account Billing').map((input) => input.value)).toEqual(['2026-11-15', '2026-11-21']);
    const serviceQuery = chartCalls(calls).find((c) => !c.query.resourceNameIn?.includes(FORWARDING));
    expect(serviceQuery?.query).toEqual({
      accountId: ACCOUNT,
      dateStart: '2026-11-15',
      dateEnd: '2026-11-21',
      resourceNameIn: JSON.stringify([POLYGON, ETHEREUM]),
      limit: '100',
      offset: '0',
      order: 'asc',
    });
  });

  it('lists the resources used in the range in a legend above the chart, which turns a series off and on', async () => {
    open({
      chartUsage: () => [
        usage(POLYGON, '2026-11-20', 2),
        usage(ETHEREUM, '2026-11-21', 3),
        usage(FORWARDING, '2026-11-21', 1),
      ],
    });
    const legend = await within(cardOf('Account Billing')).findByRole('list', { name: 'Legend' });
    const entries = within(legend).getAllByRole('button');
    expect(entries.map((entry) => entry.textContent)).toEqual([
      'Polygon Mainnet requests',
      'Ethereum Mainnet requests',
      'Polygon Mainnet token forwards',
    ]);
    expect(entries.every((entry) => entry.getAttribute('aria-pressed') === 'true')).toBe(true);

    fireEvent.click(within(legend).getByRole('button', { name: 'Ethereum Mainnet requests' }));
    await waitFor(async () => expect((await chartOf('Account Billing')).off).toEqual(['Ethereum Mainnet requests']));
    expect(within(legend).getByRole('button', { name: 'Ethereum Mainnet requests' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
    // The other chart keeps its own legend.
    expect((await chartOf('Service Usage')).off).toEqual([]);

    fireEvent.click(within(legend).getByRole('button', { name: 'Ethereum Mainnet requests' }));
    await waitFor(async () => expect((await chartOf('Account Billing')).off).toEqual([]));
  });

  it('says so when no resource was used in the range, and how to make a first call', async () => {
    open();
    const link = await within(cardOf('Service Usage')).findByRole('link', { name: 'RPC page' });
    expect(link.getAttribute('href')).toBe(`/account/${ACCOUNT}/services/rpc`);
    expect(link.closest('p')?.textContent).toBe(
      "No usage in this range. To make a first call, open the RPC page: it builds each network's URL from an API key.",
    );
    expect(within(cardOf('Service Usage')).queryByRole('list', { name: 'Legend' })).toBeNull();
  });

  it('pages the chart records in blocks of 100 until totalCount is reached', async () => {
    const many = Array.from({ length: 230 }, () => usage(POLYGON, '2026-11-20', 1));
    const calls = open({ chartUsage: () => many });

    const service = await chartOf('Service Usage');
    expect(service.series[0]?.data).toEqual([0, 0, 0, 0, 0, 230, 0]);
    const offsets = chartCalls(calls)
      .filter((c) => !c.query.resourceNameIn?.includes(FORWARDING))
      .map((c) => c.query.offset);
    expect(offsets).toEqual(['0', '100', '200']);
  });

  it('shows a loading state until the resource types are known, and asks for no usage before', async () => {
    let release: (reply: Reply<UsageResource[]>) => void = () => {};
    const calls = open({ resources: () => new Promise<Reply<UsageResource[]>>((resolve) => (release = resolve)) });

    await screen.findByText('Service Usage');
    expect(within(cardOf('Service Usage')).getByRole('status', { name: 'Loading' })).toBeTruthy();
    expect(within(cardOf('Account Billing')).getByRole('status', { name: 'Loading' })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(chartCalls(calls)).toHaveLength(0);

    release(wrapped(resources));
    await chartOf('Service Usage');
    expect(within(cardOf('Service Usage')).queryByRole('status', { name: 'Loading' })).toBeNull();
  });

  it('shows the error of a failed resource list and falls back to the default resources', async () => {
    const calls = open({ resources: () => failed(500, 'Resources are unavailable') });

    const service = await chartOf('Service Usage');
    expect(service.series.map((s) => s.name)).toEqual([
      'Polygon Mainnet requests',
      'Polygon Testnet requests',
      'Ethereum Mainnet requests',
      'Ethereum Sepolia requests',
    ]);
    expect(vi.mocked(toast.error).mock.calls.map(([e]) => (e as Error).message)).toContain('Resources are unavailable');
    expect(chartCalls(calls)[0]?.query.resourceNameIn).toBe(JSON.stringify(DEFAULT_USAGE_RESOURCES));
  });

  it('changes one chart to the last 30 days with its preset', async () => {
    const calls = open({ chartUsage: () => [usage(POLYGON, '2026-10-23', 8)] });
    await chartOf('Service Usage');

    fireEvent.mouseDown(pickerInputs('Service Usage')[0] as HTMLInputElement);
    fireEvent.click(pickerInputs('Service Usage')[0] as HTMLInputElement);
    const preset = await screen.findByText('Last 30 Days');
    for (const label of ['Last 7 Days', 'Last 14 Days', 'Last 90 Days', 'Last 180 Days']) {
      expect(screen.getByText(label)).toBeTruthy();
    }
    fireEvent.click(preset);

    await waitFor(() =>
      expect(pickerInputs('Service Usage').map((input) => input.value)).toEqual(['2026-10-23', '2026-11-21']),
    );
    await waitFor(async () => expect((await chartOf('Service Usage')).x).toHaveLength(30));
    const service = await chartOf('Service Usage');
    expect(service.x[0]).toBe('Oct. 23');
    expect(service.series[0]?.data[0]).toBe(8);
    expect(chartCalls(calls).some((c) => c.query.dateStart === '2026-10-23')).toBe(true);
    // The other chart keeps its own range.
    expect(pickerInputs('Account Billing').map((input) => input.value)).toEqual(['2026-11-15', '2026-11-21']);
  });

  it("labels the axis 'MMM. DD, YYYY' when the range spans two years", async () => {
    vi.setSystemTime(new Date(2027, 0, 3, 9));
    open();
    const service = await chartOf('Service Usage');
    expect(service.x).toEqual([
      'Dec. 28, 2026',
      'Dec. 29, 2026',
      'Dec. 30, 2026',
      'Dec. 31, 2026',
      'Jan. 01, 2027',
      'Jan. 02, 2027',
      'Jan. 03, 2027',
    ]);
  });
});
