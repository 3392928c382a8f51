import { endpoints, type ResourceUsageRecord, type UsageResource } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toast } from '../../lib/toast';
import {
  callsTo,
  captureSavedFiles,
  type FetchCall,
  failed,
  on,
  type Reply,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  wrapped,
} from '../../testing/page-test-kit';
import { UsageTable } from './usage-table';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const { list, listResources } = endpoints.usage;

const record = (patch: Partial<ResourceUsageRecord>): ResourceUsageRecord => ({
  id: 'u1',
  resourceName: 'RPC_API_ETHEREUM_MAINNET',
  date: '2026-11-20',
  usage: 1234,
  computeUnits: 1234,
  status: 'BILLED',
  price: 0.02468,
  unitPrice: 0.00002,
  apiKeyId: null,
  ...patch,
});

const resources: UsageResource[] = [
  { resourceName: 'RPC_API_ETHEREUM_MAINNET', description: 'Ethereum Mainnet RPC', unitPrice: 0.00002 },
  { resourceName: 'RPC_API_BSC_TESTNET', description: 'BSC Testnet RPC', unitPrice: 0.00002 },
];

function open({
  resourceReply = wrapped(resources),
  totalCount = 2,
}: {
  resourceReply?: Reply<UsageResource[]>;
  totalCount?: number;
}) {
  const calls = serveEndpoints(
    on(endpoints.usage.exportList, () => ({ status: 200, body: 'Date,Description\r\n2026-11-20,x\r\n' })),
    on(listResources, () => resourceReply),
    on(list, () =>
      wrapped({
        accountResourceUsage: [
          record({}),
          record({
            id: 'u2',
            resourceName: 'RPC_API_BSC_TESTNET',
            usage: 1,
            computeUnits: 1,
            status: 'PENDING',
            price: 0.00002,
          }),
          record({
            id: 'u3',
            resourceName: 'TOKEN_FORWARDING_ETHEREUM_MAINNET',
            usage: 2,
            computeUnits: null,
            status: 'BILLED',
            price: 0.1,
            unitPrice: 0.05,
          }),
        ],
        totalCount,
      }),
    ),
  );
  renderPage(
    `/account/${ACCOUNT}/billings/overview`,
    '/account/:accountId/billings/overview',
    <UsageTable accountId={ACCOUNT} />,
  );
  return calls;
}

/** The query of each usage list request, in order. */
const listQueries = (calls: FetchCall[]) => callsTo(calls, list).map((call) => call.query);

const lastQuery = (calls: FetchCall[]) => listQueries(calls).at(-1);

function header(title: string): HTMLElement {
  const found = [...document.querySelectorAll('th')].find((th) => th.textContent === title);
  if (!found) throw new Error(`No column ${title}`);
  return found;
}

async function openResourceFilter() {
  fireEvent.click(within(header('Resource Name')).getByRole('button'));
  return (await waitFor(() => {
    const dropdown = document.querySelector('.ant-table-filter-dropdown');
    expect(dropdown).not.toBeNull();
    return dropdown;
  })) as HTMLElement;
}

setUpPageTests();

describe('UsageTable', () => {
  it('asks for the first 10 records of the account, newest first, and shows them', async () => {
    const calls = open({});

    expect(await screen.findByText('RPC API BSC TESTNET', { selector: 'td' })).toBeTruthy();
    expect(listQueries(calls)).toEqual([{ accountId: ACCOUNT, limit: '10', offset: '0', order: 'desc' }]);
    expect(callsTo(calls, list)[0]?.headers['ebs-account-id']).toBe(ACCOUNT);
    const first = screen.getByText('RPC API ETHEREUM MAINNET', { selector: 'td' }).closest('tr') as HTMLElement;
    expect([...first.querySelectorAll('td')].map((cell) => cell.textContent)).toEqual([
      'RPC API ETHEREUM MAINNET',
      '1,234',
      '1,234',
      'BILLED',
      '2026-11-20',
      '0.02468',
    ]);
    const second = screen.getByText('RPC API BSC TESTNET', { selector: 'td' }).closest('tr') as HTMLElement;
    expect(within(second).getByText('0.00002')).toBeTruthy();
    expect(within(second).getByText('PENDING')).toBeTruthy();
    for (const title of ['Resource Name', 'Usage', 'Status', 'Date', 'Price']) expect(header(title)).toBeTruthy();
  });

  it('shows each record’s compute units after its usage, and a dash for token forwards, priced per forward', async () => {
    open({});

    const titles = [...document.querySelectorAll('th')].map((th) => th.textContent);
    expect(titles.slice(0, 3)).toEqual(['Resource Name', 'Usage', 'Compute Units']);
    const forwards = (await screen.findByText('TOKEN FORWARDING ETHEREUM MAINNET', { selector: 'td' })).closest(
      'tr',
    ) as HTMLElement;
    expect([...forwards.querySelectorAll('td')].map((cell) => cell.textContent).slice(1, 3)).toEqual(['2', '-']);
  });

  it('pages on the server, 10 per page, with no size changer', async () => {
    const calls = open({ totalCount: 25 });
    await screen.findByText('RPC API BSC TESTNET', { selector: 'td' });
    expect(document.querySelector('.ant-pagination-options')).toBeNull();

    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ limit: '10', offset: '20', order: 'desc' }));
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ limit: '10', offset: '10' }));
  });

  it('flips the server order each time Date is sorted, starting again at the first page', async () => {
    const calls = open({ totalCount: 25 });
    await screen.findByText('RPC API BSC TESTNET', { selector: 'td' });
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ offset: '10', order: 'desc' }));

    fireEvent.click(header('Date'));
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ offset: '0', order: 'asc' }));
    expect(header('Date').getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(header('Date'));
    await waitFor(() => expect(header('Date').getAttribute('aria-sort')).toBe('descending'));
    expect(lastQuery(calls)).toMatchObject({ offset: '0', order: 'desc' });
    fireEvent.click(header('Date'));
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ order: 'asc' }));
  });

  it('filters by resource name on the server with a JSON array, offering the names with spaces', async () => {
    const calls = open({});
    await screen.findByText('RPC API BSC TESTNET', { selector: 'td' });
    await waitFor(() => expect(callsTo(calls, listResources)).not.toHaveLength(0));

    const dropdown = await openResourceFilter();
    await waitFor(() => expect(within(dropdown).getByText('RPC API BSC TESTNET')).toBeTruthy());
    fireEvent.click(within(dropdown).getByText('RPC API ETHEREUM MAINNET'));
    fireEvent.click(within(dropdown).getByRole('button', { name: 'OK' }));

    await waitFor(() =>
      expect(lastQuery(calls)).toEqual({
        accountId: ACCOUNT,
        limit: '10',
        offset: '0',
        order: 'desc',
        resourceNameIn: '["RPC_API_ETHEREUM_MAINNET"]',
      }),
    );
  });

  it('shows the error and offers the default resources when the resource list cannot be fetched', async () => {
    open({ resourceReply: failed(500, 'Resources are unavailable right now.', 'Internal Server Error') });
    await screen.findByText('RPC API BSC TESTNET', { selector: 'td' });

    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        expect.objectContaining({ message: 'Resources are unavailable right now.' }),
      ),
    );
    const dropdown = await openResourceFilter();
    const offered = await waitFor(() => {
      const items = [...dropdown.querySelectorAll('.ant-dropdown-menu-title-content')].map((item) => item.textContent);
      expect(items).toHaveLength(4);
      return items;
    });
    expect(offered).toEqual([
      'RPC API POLYGON MAINNET',
      'RPC API POLYGON TESTNET',
      'RPC API ETHEREUM MAINNET',
      'RPC API ETHEREUM TESTNET',
    ]);
  });

  it('exports every record the table’s filters keep as a CSV file, the paging aside', async () => {
    const { saved, restore } = captureSavedFiles();
    const calls = open({});
    await screen.findByText('RPC API BSC TESTNET', { selector: 'td' });
    fireEvent.click(header('Date'));
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ order: 'asc' }));
    fireEvent.click(screen.getByRole('button', { name: /Export CSV/ }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(callsTo(calls, endpoints.usage.exportList)[0]?.query).toEqual({ accountId: ACCOUNT, order: 'asc' });
    const text = await new Promise((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result);
      reader.readAsText(saved[0] as Blob);
    });
    restore();
    expect(text).toBe('Date,Description\r\n2026-11-20,x\r\n');
  });
});
