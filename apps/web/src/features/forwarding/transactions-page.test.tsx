import { endpoints, type ForwardingTransactionList } from '@ebs/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import {
  callsTo,
  type EndpointStub,
  type FetchCall,
  failed,
  on,
  type Reply,
  serveEndpoints,
  setUpPageTests,
  stubWindowWidth,
  wrapped,
} from '../../testing/page-test-kit';
import {
  ADDRESS_A,
  ADDRESS_B,
  drawer,
  emptyState,
  HASH,
  ROUTES,
  renderRoutes,
  type ServerState,
  serveForwarding,
  transaction,
} from './forwarding-test-kit';
import { SEARCH_DEBOUNCE_MS, TransactionsPage } from './transactions-page';

setUpPageTests();

const { listTransactions } = endpoints.forwarding;
/** The search waits a second after the last keystroke; this leaves room for it. */
const AFTER_DEBOUNCE = { timeout: 4000 };

function open(state: ServerState, navigationState?: unknown, ...first: EndpointStub[]) {
  const calls = serveForwarding(state, ...first);
  renderRoutes(
    ROUTES.transactions,
    { '/account/:accountId/services/token-forwarding/transactions': <TransactionsPage /> },
    navigationState,
  );
  return calls;
}

const listQueries = (calls: FetchCall[]) => callsTo(calls, listTransactions).map((c) => c.query);
const search = () => screen.getByPlaceholderText('Wallet ID/ Wallet Address') as HTMLInputElement;
const rows = () => [...document.querySelectorAll('.ant-table-row')] as HTMLElement[];
/** The text of column `index` in each row, top to bottom. */
const column = (index: number) => rows().map((r) => r.querySelectorAll('td')[index]?.textContent);

const other = transaction({
  id: 'dddddddd-dddd-4ddd-8ddd-000000000002',
  tokenForwardingWalletId: 'ffffffff-ffff-4fff-8fff-ffffffffffff',
  fromAddress: '0x3333333333333333333333333333333333333333',
  amount: '10',
  createdAt: '2026-11-20T08:00:00.000Z',
  webhookStatus: 'FAILED',
});

describe('TransactionsPage: the table', () => {
  it('lists every transaction with ids, addresses and hashes shortened to 4...4', async () => {
    const calls = open(emptyState({ transactions: [transaction({ amount: '0.24999958' })] }));
    expect(await screen.findByRole('heading', { name: 'Token Forwarding Transactions' })).toBeTruthy();
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(listQueries(calls)).toEqual([{}]);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Wallet ID',
      'From Wallet Address',
      'To Wallet Address',
      'Transaction Hash',
      'Network',
      'Amount',
      'Webhook Status',
      'Date',
    ]);
    const cells = [...(rows()[0]?.querySelectorAll('td') ?? [])].map((td) => td.textContent);
    expect(cells.slice(0, 7)).toEqual([
      'aaaa...aaaa',
      '0x52...9EE7',
      '0x86...070D',
      '0x88...944b',
      'ETHEREUM SEPOLIA',
      '+0.25000',
      'DELIVERED',
    ]);
    expect(cells[7]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(screen.getByText('0x52...9EE7').getAttribute('title')).toBe(ADDRESS_A);
    // spec B §9: 5 decimals, a plus sign and green; the exact amount on hover.
    const amount = screen.getByText('+0.25000');
    expect(amount.className).toBe('amount-positive');
    expect(amount.closest('[title]')?.getAttribute('title')).toBe('0.24999958');
  });

  it('shows a phone the hash and the amount only; the row still opens every field', async () => {
    stubWindowWidth(390);
    open(emptyState({ transactions: [transaction({ amount: '0.24999958' })] }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Transaction Hash', 'Amount']);
    expect(column(0)).toEqual(['0x88...944b']);
    expect(column(1)).toEqual(['+0.25000']);
  });

  it('sorts by amount', async () => {
    open(emptyState({ transactions: [other, transaction()] }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(column(5)).toEqual(['+10.00000', '+0.25000']);
    fireEvent.click(screen.getByRole('columnheader', { name: 'Amount' }));
    await waitFor(() => expect(column(5)).toEqual(['+0.25000', '+10.00000']));
    fireEvent.click(screen.getByRole('columnheader', { name: 'Amount' }));
    await waitFor(() => expect(column(5)).toEqual(['+10.00000', '+0.25000']));
  });

  it('sorts by date, oldest first, then newest first', async () => {
    open(emptyState({ transactions: [transaction(), other] }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(column(0)).toEqual(['aaaa...aaaa', 'ffff...ffff']);
    const [newer, older] = column(7);
    expect(newer! > older!).toBe(true);
    fireEvent.click(screen.getByRole('columnheader', { name: 'Date' }));
    await waitFor(() => expect(column(0)).toEqual(['ffff...ffff', 'aaaa...aaaa']));
    expect(column(7)).toEqual([older, newer]);
    fireEvent.click(screen.getByRole('columnheader', { name: 'Date' }));
    await waitFor(() => expect(column(0)).toEqual(['aaaa...aaaa', 'ffff...ffff']));
    expect(column(7)).toEqual([newer, older]);
  });

  it('shows no empty text while the first answer is on its way', async () => {
    let answer: (reply: Reply<ForwardingTransactionList>) => void = () => {};
    serveEndpoints(
      on(listTransactions, () => new Promise<Reply<ForwardingTransactionList>>((resolve) => (answer = resolve))),
    );
    renderRoutes(ROUTES.transactions, {
      '/account/:accountId/services/token-forwarding/transactions': <TransactionsPage />,
    });

    const placeholder = await waitFor(() => {
      const shown = document.querySelector('.ant-table-placeholder');
      expect(shown).not.toBeNull();
      return shown as HTMLElement;
    });
    expect(placeholder.textContent).toBe('');

    answer(wrapped({ tokenForwardingTransactions: [], totalCount: 0 }));
    expect(await screen.findByText(/^No transactions yet\./)).toBeTruthy();
  });

  it('logs a failed fetch and shows an empty list, with no error toast', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    open(
      emptyState({ transactions: [transaction()] }),
      undefined,
      on(listTransactions, () => failed(500, 'Internal Server Error', 'Internal Server Error')),
    );
    expect(await screen.findByText(/^No transactions yet\./)).toBeTruthy();
    expect(logged).toHaveBeenCalledWith('Failed to fetch the token forwarding transactions', expect.any(Error));
    expect(toast.error).not.toHaveBeenCalled();
    logged.mockRestore();
  });
});

describe('TransactionsPage: the search', () => {
  it('sends a value starting with 0x as address, anything else as tokenForwardingWalletId, after the pause', async () => {
    const calls = open(emptyState({ transactions: [transaction(), other] }));
    await waitFor(() => expect(rows()).toHaveLength(2));

    for (const typed of ['0', '0x', '0x3333', '0x3333333333333333333333333333333333333333']) {
      fireEvent.change(search(), { target: { value: typed } });
    }
    await waitFor(() => expect(rows()).toHaveLength(1), AFTER_DEBOUNCE);
    expect(listQueries(calls)).toEqual([{}, { address: '0x3333333333333333333333333333333333333333' }]);

    fireEvent.change(search(), { target: { value: ' aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa ' } });
    await waitFor(() => expect(listQueries(calls)).toHaveLength(3), AFTER_DEBOUNCE);
    expect(listQueries(calls)[2]).toEqual({ tokenForwardingWalletId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' });
    await waitFor(() => expect(rows()[0]?.textContent).toContain('0x52...9EE7'));

    fireEvent.change(search(), { target: { value: 'no-such-wallet' } });
    expect(await screen.findByText(/^No transactions match/, {}, AFTER_DEBOUNCE)).toBeTruthy();
  });

  it('asks the server only once the search has stayed unchanged for 1000 ms', async () => {
    expect(SEARCH_DEBOUNCE_MS).toBe(1000);
    const calls = open(emptyState({ transactions: [transaction(), other] }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    // Only the debounce's own timer is faked: the fetch stand-in and antd run as usual.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      fireEvent.change(search(), { target: { value: 'ffff' } });
      await act(() => vi.advanceTimersByTimeAsync(600));
      // A keystroke starts the wait over.
      fireEvent.change(search(), { target: { value: other.tokenForwardingWalletId } });
      await act(() => vi.advanceTimersByTimeAsync(900));
      expect(listQueries(calls)).toEqual([{}]);
      await act(() => vi.advanceTimersByTimeAsync(100));
      expect(listQueries(calls)).toEqual([{}, { tokenForwardingWalletId: other.tokenForwardingWalletId }]);
      // The answer is handed to the table on a (fake) timer too, so vi.waitFor moves the clock on.
      await vi.waitFor(() => expect(column(0)).toEqual(['ffff...ffff']));
    } finally {
      vi.useRealTimers();
    }
  });

  it('starts searching for the wallet handed over by View Transactions', async () => {
    const calls = open(emptyState({ transactions: [transaction(), other] }), {
      walletId: other.tokenForwardingWalletId,
    });
    expect(search().value).toBe(other.tokenForwardingWalletId);
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(listQueries(calls)).toEqual([{ tokenForwardingWalletId: other.tokenForwardingWalletId }]);
  });
});

describe('TransactionsPage: Transaction Details', () => {
  it('shows the forward with explorer links, gas in Wei and the webhook log as pretty JSON', async () => {
    const attempt = {
      attempt: 1,
      at: '2026-11-21T12:00:05.000Z',
      url: 'https://hooks.example.com/in',
      statusCode: 200,
      durationMs: 84,
      response: '{"ok":true}',
    };
    open(emptyState({ transactions: [transaction({ webhookLog: [attempt] })] }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    fireEvent.click(rows()[0] as HTMLElement);
    const details = await drawer('Transaction Details');

    for (const [title, value] of [
      ['Transaction ID', transaction().id],
      ['Token Forwarding Wallet ID', transaction().tokenForwardingWalletId],
      ['Network', 'ETHEREUM SEPOLIA'],
      ['Amount', '+0.25000'],
      ['Token', 'ETH'],
      ['Gas Used', '21000 Wei'],
      ['Webhook Status', 'DELIVERED'],
      ['Webhook Attempt', '1'],
    ]) {
      const row = within(details)
        .getByText(title as string)
        .closest('.detail-row') as HTMLElement;
      expect(within(row).getByText(value as string)).toBeTruthy();
    }
    const href = (name: string) => within(details).getByRole('link', { name }).getAttribute('href');
    expect(href(ADDRESS_A)).toBe(`https://sepolia.etherscan.io/address/${ADDRESS_A}`);
    expect(href(ADDRESS_B)).toBe(`https://sepolia.etherscan.io/address/${ADDRESS_B}`);
    expect(href(HASH)).toBe(`https://sepolia.etherscan.io/tx/${HASH}`);

    const log = within(details).getByText('Webhook Log').closest('.detail-row') as HTMLElement;
    fireEvent.click(within(log).getByText('View'));
    const pre = await waitFor(() => log.querySelector('pre') as HTMLElement);
    expect(pre.textContent).toBe(JSON.stringify([attempt], null, 2));
  });
});

describe('TransactionsPage: a forward under way', () => {
  it('asks again every few seconds while a forward is in progress, so its status moves on by itself', async () => {
    const state = emptyState({ transactions: [transaction({ status: 'CONFIRMING' })] });
    const calls = open(state);
    await waitFor(() => expect(rows()).toHaveLength(1));
    state.transactions = [transaction({ status: 'COMPLETED' })];
    await waitFor(() => expect(callsTo(calls, listTransactions).length).toBeGreaterThanOrEqual(2), { timeout: 9000 });
  });
});
