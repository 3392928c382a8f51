import { endpoints, type RequestLogEntry } from '@ebs/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { callsTo, on, renderPage, serveEndpoints, setUpPageTests, wrapped } from '../../testing/page-test-kit';
import { RequestsPage } from './requests-page';

const ACCOUNT = '11111111-1111-4111-8111-111111111111';
const { requests } = endpoints.usage;

const entry = (patch: Partial<RequestLogEntry>): RequestLogEntry => ({
  time: '2026-11-26T10:00:00.000Z',
  apiKeyId: '22222222-2222-4222-8222-222222222222',
  apiKeyName: 'Main',
  network: 'ethereum/mainnet',
  methods: ['eth_call'],
  httpStatus: 200,
  errorCode: null,
  errorMessage: null,
  requestChars: 66,
  latencyMs: 3.25,
  clientIp: '203.0.113.7',
  origin: 'https://dapp.example',
  ...patch,
});

function open(totalCount = 2) {
  const calls = serveEndpoints(
    on(endpoints.keys.list, () => wrapped({ apiKeys: [], offset: 0, limit: 100, total: 0, count: 0 })),
    on(requests, () =>
      wrapped({
        requests: [
          entry({ methods: ['eth_sign'], errorCode: -32601, apiKeyName: '' }),
          entry({}),
          entry({
            time: '2026-11-26T09:00:00.000Z',
            methods: ['eth_gasPrice'],
            httpStatus: 403,
            errorCode: -32003,
            errorMessage: 'method eth_gasPrice is not allowed for this key',
            requestChars: 62,
          }),
        ],
        totalCount,
      }),
    ),
  );
  renderPage(`/account/${ACCOUNT}/services/requests`, '/account/:accountId/services/requests', <RequestsPage />);
  return calls;
}

setUpPageTests();

describe('RequestsPage', () => {
  it('shows the logged requests with who, where, status, error code and latency', async () => {
    const calls = open();
    const failedRow = (await screen.findByText('eth_sign', { selector: 'td' })).closest('tr') as HTMLElement;
    expect([...failedRow.querySelectorAll('td')].map((td) => td.textContent).slice(1)).toEqual([
      '(deleted key)',
      'Ethereum Mainnet',
      'eth_sign',
      '200',
      '-32601',
      '3.25',
      '203.0.113.7',
      'dapp.example',
    ]);
    expect(callsTo(calls, requests)[0]?.query).toEqual({ limit: '10', offset: '0' });
  });

  it('filters on the server by failure, method and status, starting again at the first page', async () => {
    const calls = open(25);
    await screen.findByText('eth_sign', { selector: 'td' });
    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(callsTo(calls, requests).at(-1)?.query).toMatchObject({ offset: '20' }));

    fireEvent.click(screen.getByRole('checkbox', { name: 'Failed only' }));
    await waitFor(() =>
      expect(callsTo(calls, requests).at(-1)?.query).toEqual({ limit: '10', offset: '0', failedOnly: 'true' }),
    );
    const method = screen.getByRole('searchbox', { name: 'Method' });
    fireEvent.change(method, { target: { value: 'eth_call' } });
    fireEvent.keyDown(method, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(callsTo(calls, requests).at(-1)?.query).toMatchObject({ method: 'eth_call' }));
  });

  it('opens a row to what the gateway answered: a refusal by the key told apart from a node error', async () => {
    open();
    const refused = (await screen.findByText('eth_gasPrice', { selector: 'td' })).closest('tr') as HTMLElement;
    expect(within(refused).getByText('403').closest('.ant-tag')?.className).toContain('orange');
    fireEvent.click(refused);
    const detail = await screen.findByText(/HTTP 403 · -32003: method eth_gasPrice is not allowed for this key/);
    const opened = detail.closest('.request-detail') as HTMLElement;
    expect(within(opened).getByText(/Refused by the gateway: this key's rules or limits/)).toBeTruthy();
    expect(within(opened).getByText('62 characters')).toBeTruthy();
    expect(within(opened).getByText('https://dapp.example')).toBeTruthy();
    expect(within(opened).getByText('203.0.113.7')).toBeTruthy();

    // The node's error: told as such; Enter opens it from the keyboard.
    const failed = screen.getByText('eth_sign', { selector: 'td' }).closest('tr') as HTMLElement;
    expect(within(failed).getByText('200').closest('.ant-tag')?.className).toContain('red');
    fireEvent.keyDown(failed, { key: 'Enter' });
    expect(await screen.findByText("An error answer from the network's node")).toBeTruthy();

    // A second click closes the first.
    fireEvent.click(refused);
    await waitFor(() => expect((opened.closest('tr') as HTMLElement).style.display).toBe('none'));
  });
});
