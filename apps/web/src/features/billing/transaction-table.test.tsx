import { endpoints, type Transaction, type TransactionList } from '@ebs/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  callsTo,
  captureSavedFiles,
  failed,
  on,
  type Reply,
  renderPage,
  serveEndpoints,
  setUpPageTests,
  stubWindowWidth,
  wrapped,
} from '../../testing/page-test-kit';
import { statementMonths } from './statement-download';
import { TransactionTable } from './transaction-table';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const HINT = 'No transactions yet. Buy credits to make your first deposit.';

const deposit: Transaction = {
  id: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd',
  type: 'DEPOSIT_ONE_TIME',
  amount: 30,
  status: 'COMPLETED',
  createdAt: '2026-11-21T12:00:00.000Z',
  updatedAt: '2026-11-21T12:00:00.000Z',
  metadata: {},
};

const { listTransactions, listTransactionTypes } = endpoints.billing;

function open(answer: () => Reply<TransactionList> | Promise<Reply<TransactionList>>) {
  const calls = serveEndpoints(
    on(listTransactionTypes, () => wrapped([])),
    on(listTransactions, answer),
  );
  renderPage(
    `/account/${ACCOUNT}/billings/overview`,
    '/account/:accountId/billings/overview',
    <TransactionTable accountId={ACCOUNT} />,
  );
  return () => callsTo(calls, listTransactions);
}

const placeholder = () => document.querySelector('.ant-table-placeholder');

setUpPageTests();

describe('TransactionTable on a phone', () => {
  it('keeps what tells a row apart to a person: its type, amount and date', async () => {
    stubWindowWidth(390);
    open(() => wrapped({ transactions: [deposit], totalCount: 1 }));
    await screen.findByText('+30.00000');
    expect([...document.querySelectorAll('th')].map((th) => th.textContent)).toEqual([
      'Transaction Type',
      'Amount (USD)',
      'Date',
    ]);
  });
});

describe('TransactionTable: loading, empty and failed states', () => {
  it('shows a blank while the history loads, then says how to make the first deposit', async () => {
    let answer: (reply: Reply<TransactionList>) => void = () => {};
    open(() => new Promise<Reply<TransactionList>>((resolve) => (answer = resolve)));

    await vi.waitFor(() => expect(placeholder()).not.toBeNull());
    expect(placeholder()?.textContent).toBe('');

    answer(wrapped({ transactions: [], totalCount: 0 }));
    expect(await screen.findByText(HINT)).toBeTruthy();
  });

  it('says what to do when the history fails to load, and Try again fetches it again', async () => {
    let attempt = 0;
    const listCalls = open(() => {
      attempt += 1;
      return attempt === 1 ? failed(503, 'History is resting') : wrapped({ transactions: [deposit], totalCount: 1 });
    });

    expect(await screen.findByText(/History is resting Check your connection, then try again\./)).toBeTruthy();
    expect(screen.queryByText(HINT)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(deposit.id)).toBeTruthy();
    expect(listCalls()).toHaveLength(2);
  });
});

describe('TransactionTable: refunds and disputes', () => {
  it('describes refunded, disputed and reinstated card deposits in words, with their signed amounts', async () => {
    const row = (id: string, type: string, amount: number): Transaction => ({ ...deposit, id, type, amount });
    const rows = [
      row('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'REFUND_CARD_DEPOSIT', -12.5),
      row('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'DISPUTE_CARD_DEPOSIT', -17.5),
      row('cccccccc-cccc-4ccc-8ccc-cccccccccccc', 'DISPUTE_REINSTATED', 17.5),
    ];
    open(() => wrapped({ transactions: rows, totalCount: rows.length }));

    expect(await screen.findByText('Card deposit refund')).toBeTruthy();
    expect(screen.getByText('Card deposit disputed')).toBeTruthy();
    expect(screen.getByText('Disputed deposit reinstated')).toBeTruthy();
    for (const type of ['REFUND_CARD_DEPOSIT', 'DISPUTE_CARD_DEPOSIT', 'DISPUTE_REINSTATED']) {
      expect(screen.queryByText(type)).toBeNull();
    }
  });
});

describe('TransactionTable: monthly statements', () => {
  it('offers this month to date and the eleven before it, each to its last UTC day', () => {
    const months = statementMonths(new Date('2026-03-31T23:30:00Z'));
    expect(months).toHaveLength(12);
    expect(months[0]).toEqual({ start: '2026-03-01', end: '2026-03-31', label: 'March 2026 (to date)' });
    expect(months[1]).toEqual({ start: '2026-02-01', end: '2026-02-28', label: 'February 2026' });
    expect(months[3]).toEqual({ start: '2025-12-01', end: '2025-12-31', label: 'December 2025' });
    expect(months[11]).toEqual({ start: '2025-04-01', end: '2025-04-30', label: 'April 2025' });
  });

  it('downloads the statement of a month chosen from the menu as a PDF file', async () => {
    const { saved, restore } = captureSavedFiles();
    const pdf = [...new TextEncoder().encode('%PDF-1.4')];
    const calls = serveEndpoints(
      on(listTransactionTypes, () => wrapped([])),
      on(listTransactions, () => wrapped({ transactions: [deposit], totalCount: 1 })),
      on(endpoints.billing.downloadStatement, () =>
        wrapped({ fileName: 'statement.pdf', contentType: 'application/pdf', pdf: { type: 'Buffer', data: pdf } }),
      ),
    );
    renderPage(
      `/account/${ACCOUNT}/billings/overview`,
      '/account/:accountId/billings/overview',
      <TransactionTable accountId={ACCOUNT} />,
    );
    const lastMonth = statementMonths(new Date())[1];
    fireEvent.click(await screen.findByRole('button', { name: 'Statement of another month' }));
    fireEvent.click(await screen.findByText(lastMonth?.label ?? ''));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(callsTo(calls, endpoints.billing.downloadStatement)[0]?.query).toEqual({
      dateStart: lastMonth?.start,
      dateEnd: lastMonth?.end,
    });
    expect(saved[0]?.type).toBe('application/pdf');
    restore();
  });
});
