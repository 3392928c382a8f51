import { endpoints, NotifyMessages } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../lib/format';
import { toast } from '../../lib/toast';
import { callsTo, type EndpointStub, failed, on, setUpPageTests, wrapped } from '../../testing/page-test-kit';
import {
  AT,
  address,
  button,
  cells,
  delivery,
  dialog,
  LIST_PATH,
  type NotifyState,
  notifyState,
  renderWebhookPages,
  serveNotify,
  shownErrors,
  WEBHOOK_ID,
  webhook,
  webhookAt,
} from './webhooks-test-kit';

setUpPageTests();

const N = endpoints.notify;
const M = NotifyMessages;
const LATER = '2026-11-21T12:05:00.000Z';

const failing = delivery({
  id: 'd2',
  eventId: 'evt_0002',
  blockNumber: 7_000_010,
  confirmed: false,
  removed: true,
  status: 'FAILED',
  activityCount: 1,
  nextAttemptAt: LATER,
  attempts: [
    { attempt: 1, at: AT, statusCode: null, durationMs: 10_000, error: 'timeout after 10 s' },
    { attempt: 2, at: LATER, statusCode: 500, durationMs: 120, error: 'Internal Server Error' },
  ],
  createdAt: LATER,
});
const replayed = delivery({ id: 'd3', eventId: 'evt_0003', replay: true, status: 'PENDING', attempts: [] });
const tested = delivery({ id: 'd4', eventId: 'evt_test', test: true, activityCount: 0 });

function open(state: NotifyState, ...first: EndpointStub[]) {
  const calls = serveNotify(state, ...first);
  renderWebhookPages(webhookAt(WEBHOOK_ID));
  return calls;
}

const withLog = (...deliveries: ReturnType<typeof delivery>[]) =>
  notifyState({
    webhooks: [webhook({ addressCount: 2, failingSince: AT })],
    addresses: { [WEBHOOK_ID]: [address(1), address(2)] },
    deliveries: { [WEBHOOK_ID]: deliveries },
  });

const card = (testId: string) => screen.findByTestId(testId);
const detail = (title: string) =>
  screen.getByText(title, { selector: '.detail-row > span' }).parentElement?.querySelector('.detail-row-value')
    ?.textContent;
const deliveryRow = async (eventId: string) =>
  (await within(await card('webhook-deliveries')).findByText(eventId)).closest('tr') as HTMLElement;
const header = () => screen.getByRole('heading', { level: 2 }).closest('.page-header') as HTMLElement;

describe('WebhookPage: details and the delivery log', () => {
  it('shows the webhook’s details, and each delivery with its kind, status and last HTTP status', async () => {
    const calls = open(withLog(failing, replayed, delivery()));

    expect(await screen.findByRole('heading', { name: 'Treasury deposits', level: 2 })).toBeTruthy();
    expect(detail('Network')).toBe('ETHEREUM SEPOLIA');
    expect(detail('URL')).toBe('https://hooks.example.com/activity');
    expect(detail('Categories')).toBe('Native, ERC-20, ERC-721, ERC-1155');
    expect(detail('Confirmations')).toBe('None (told at once)');
    expect(detail('Addresses')).toBe('2');
    expect(detail('Failing since')).toBe(formatDateTime(AT));

    const log = await card('webhook-deliveries');
    const failed = await deliveryRow('evt_0002');
    // The expand buttons' column is named for screen readers only.
    expect(
      within(log)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Attempts', 'Time', 'Event ID', 'Block', 'Kind', 'Activity', 'Status', 'Last HTTP status']);
    expect(cells(failed).slice(1)).toEqual([
      formatDateTime(LATER),
      'evt_0002',
      '7000010',
      'unconfirmedremoved',
      '1',
      'FAILED',
      'HTTP 500',
    ]);
    expect(cells(await deliveryRow('evt_0003')).slice(4)).toEqual(['confirmedreplay', '2', 'PENDING', '']);
    expect(cells(await deliveryRow('evt_0001')).slice(4)).toEqual(['confirmed', '2', 'DELIVERED', 'HTTP 200']);
    expect(within(log).getByText('PENDING').className).toContain('ant-tag-gold');
    expect(within(log).getByText('FAILED').className).toContain('ant-tag-red');
    expect(callsTo(calls, N.deliveries)[0]?.query).toEqual({ limit: '10', offset: '0' });
  });

  it('opens a delivery to its attempts: number, time, status code or no answer, duration and error', async () => {
    open(withLog(failing));
    const row = await deliveryRow('evt_0002');

    fireEvent.click(within(row).getByRole('button', { name: /expand row/i }));
    const opened = row.nextElementSibling as HTMLElement;
    const attempts = within(opened).getAllByRole('row').slice(1);
    expect(attempts.map(cells)).toEqual([
      ['1', formatDateTime(AT), 'No answer', '10,000 ms', 'timeout after 10 s'],
      ['2', formatDateTime(LATER), '500', '120 ms', 'Internal Server Error'],
    ]);
    expect(within(opened).getByText(formatDateTime(LATER), { selector: '.detail-row-value' })).toBeTruthy();
    expect(within(opened).getByText('msg_0001')).toBeTruthy();
  });

  it('shows a new delivery within seconds, without a reload', async () => {
    const state = withLog(delivery());
    const calls = open(state);
    await deliveryRow('evt_0001');

    state.deliveries[WEBHOOK_ID] = [tested, delivery()];
    expect(await deliveryRow('evt_test')).toBeTruthy();
    expect(callsTo(calls, N.deliveries).length).toBeGreaterThan(1);
  });

  it('pages the log by 10 with the total the server gives', async () => {
    const many = Array.from({ length: 12 }, (_, i) => delivery({ id: `d${i}`, eventId: `evt_${100 + i}` }));
    const calls = open(withLog(...many));
    await deliveryRow('evt_100');

    fireEvent.click(within(await card('webhook-deliveries')).getByTitle('2'));
    expect(await deliveryRow('evt_111')).toBeTruthy();
    expect(callsTo(calls, N.deliveries).at(-1)?.query).toEqual({ limit: '10', offset: '10' });
  });

  it('says when the webhook does not exist', async () => {
    open(notifyState());
    expect(await screen.findByText(`${M.notFound} It may have been deleted.`)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Try again/ })).toBeNull();
    expect(screen.getByRole('link', { name: /All webhooks/ }).getAttribute('href')).toBe(LIST_PATH);
  });
});

describe('WebhookPage: the actions', () => {
  it('disables after asking, then enables again, each with setStatus', async () => {
    const calls = open(withLog());
    fireEvent.click(button(await waitFor(header), 'Disable'));
    const ask = await dialog('Disable webhook');
    fireEvent.click(button(ask, 'Disable'));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(M.disabled));
    expect(await within(header()).findByText('DISABLED')).toBeTruthy();
    expect(detail('Status')).toBe(`DISABLED${M.disabledByUser}`);

    fireEvent.click(button(header(), 'Enable'));
    fireEvent.click(button(await dialog('Enable webhook'), 'Enable'));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(M.enabled));
    expect(callsTo(calls, N.setStatus).map((c) => [c.method, c.params.webhookId, c.body])).toEqual([
      ['POST', WEBHOOK_ID, { status: 'DISABLED' }],
      ['POST', WEBHOOK_ID, { status: 'ENABLED' }],
    ]);
  });

  it('sends a test and shows what the receiver answered', async () => {
    const calls = open(withLog());
    fireEvent.click(button(await waitFor(header), 'Test'));

    const answer = await dialog('Test delivery');
    expect(within(answer).getByText('202')).toBeTruthy();
    expect(within(answer).getByText('42 ms')).toBeTruthy();
    expect(within(answer).getByTestId('webhook-test-body').textContent).toBe('{"received":true}');
    expect(callsTo(calls, N.test).map((c) => [c.method, c.params.webhookId])).toEqual([['POST', WEBHOOK_ID]]);
  });

  it('shows a test without an answer as such', async () => {
    open(
      withLog(),
      on(N.test, () => wrapped({ statusCode: null, durationMs: 10_000, body: '' })),
    );
    fireEvent.click(button(await waitFor(header), 'Test'));

    const answer = await dialog('Test delivery');
    expect(within(answer).getByText('No answer')).toBeTruthy();
    expect(within(answer).getByTestId('webhook-test-body').textContent).toBe('(empty)');
  });

  it('replays a range of blocks, refusing 10,000 blocks or more before any call', async () => {
    const calls = open(withLog());
    fireEvent.click(button(await waitFor(header), 'Replay'));
    const form = await dialog('Replay blocks');

    fireEvent.change(within(form).getByLabelText('From block'), { target: { value: '100' } });
    fireEvent.change(within(form).getByLabelText('To block'), { target: { value: '10100' } });
    fireEvent.click(button(form, 'Start replay'));
    await waitFor(() => expect(shownErrors(form)).toEqual([M.replayRange]));
    fireEvent.change(within(form).getByLabelText('To block'), { target: { value: '50' } });
    fireEvent.click(button(form, 'Start replay'));
    await waitFor(() => expect(shownErrors(form)).toEqual([M.replayRange]));
    expect(callsTo(calls, N.replay)).toHaveLength(0);

    fireEvent.change(within(form).getByLabelText('To block'), { target: { value: '10099' } });
    fireEvent.click(button(form, 'Start replay'));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Replay has started.'));
    expect(callsTo(calls, N.replay).map((c) => c.body)).toEqual([{ fromBlock: 100, toBlock: 10099 }]);
    await waitFor(() => expect(screen.queryByText('Replay blocks', { selector: '.ant-modal-title' })).toBeNull());
  });

  it('keeps the replay open with the server’s refusal', async () => {
    const refusal = M.replayAhead(9_000_000);
    open(
      withLog(),
      on(N.replay, () => failed(400, refusal)),
    );
    fireEvent.click(button(await waitFor(header), 'Replay'));
    const form = await dialog('Replay blocks');
    fireEvent.change(within(form).getByLabelText('From block'), { target: { value: '9000000' } });
    fireEvent.change(within(form).getByLabelText('To block'), { target: { value: '9000100' } });
    fireEvent.click(button(form, 'Start replay'));

    await waitFor(() => expect(vi.mocked(toast.error).mock.calls.at(-1)?.[0]).toHaveProperty('message', refusal));
    expect(screen.getByText('Replay blocks', { selector: '.ant-modal-title' })).toBeTruthy();
  });

  it('deletes after asking, and goes back to the list', async () => {
    const state = withLog();
    const calls = open(state);
    fireEvent.click(button(await waitFor(header), 'Delete'));
    const ask = await dialog('Delete webhook');
    expect(within(ask).getByText('Treasury deposits')).toBeTruthy();
    fireEvent.click(button(ask, 'Delete'));

    expect(await screen.findByRole('heading', { name: 'Webhooks', level: 2 })).toBeTruthy();
    expect(toast.success).toHaveBeenCalledWith(M.deleted);
    expect(callsTo(calls, N.remove).map((c) => [c.method, c.params.webhookId])).toEqual([['DELETE', WEBHOOK_ID]]);
    expect(state.webhooks).toEqual([]);
  });
});
