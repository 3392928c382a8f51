import { endpoints, NOTIFY_LIMITS, type NotifyDelivery, NotifyMessages, type NotifyWebhook } from '@ebs/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { accountRoutes } from '../../config/paths';
import { type EndpointStub, failed, on, serveEndpoints, wrapped } from '../../testing/page-test-kit';
import { WebhookPage } from './webhook-page';
import { WebhooksPage } from './webhooks-page';

/** Test support of the webhook pages: sample webhooks and deliveries, a stand-in server, the pages at their routes. */

export const ACCOUNT = '11111111-1111-4111-8111-111111111111';
export const WEBHOOK_ID = '0b7c4e1a-2f3d-4c5b-8a9e-1f2d3c4b5a6e';
/** The id the stand-in gives a created webhook. */
export const CREATED_ID = 'c0ffee00-0000-4000-8000-000000000001';
export const AT = '2026-11-21T12:00:00.000Z';
export const LIST_PATH = `/account/${ACCOUNT}/services/webhooks`;
export const webhookAt = (id: string) => `${LIST_PATH}/${id}`;

/** The n-th sample address: 0x and 40 hexadecimal digits, lowercase. */
export const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

export const webhook = (patch: Partial<NotifyWebhook> = {}): NotifyWebhook => ({
  id: WEBHOOK_ID,
  name: 'Treasury deposits',
  network: 'ETHEREUM_SEPOLIA',
  url: 'https://hooks.example.com/activity',
  categories: ['NATIVE', 'ERC20', 'ERC721', 'ERC1155'],
  confirmations: 0,
  status: 'ENABLED',
  disabledReason: null,
  addressCount: 0,
  failingSince: null,
  lastDelivery: null,
  createdAt: AT,
  ...patch,
});

export const delivery = (patch: Partial<NotifyDelivery> = {}): NotifyDelivery => ({
  id: 'd1',
  eventId: 'evt_0001',
  messageId: 'msg_0001',
  blockNumber: 7_000_000,
  blockHash: `0x${'ab'.repeat(32)}`,
  confirmed: true,
  removed: false,
  replay: false,
  test: false,
  activityCount: 2,
  status: 'DELIVERED',
  nextAttemptAt: null,
  attempts: [{ attempt: 1, at: AT, statusCode: 200, durationMs: 85, error: null }],
  createdAt: AT,
  ...patch,
});

export interface NotifyState {
  webhooks: NotifyWebhook[];
  /** Each webhook's watched addresses, lowercase. */
  addresses: Record<string, string[]>;
  /** Each webhook's log, as the server answers it. */
  deliveries: Record<string, NotifyDelivery[]>;
}

export const notifyState = (patch: Partial<NotifyState> = {}): NotifyState => ({
  webhooks: [],
  addresses: {},
  deliveries: {},
  ...patch,
});

const N = endpoints.notify;
const notFound = () => failed(404, NotifyMessages.notFound, 'Not Found');
/** The server takes at most 1000 addresses in a list (the contract's maxItems). */
const tooMany = (list: string[] | undefined) => (list?.length ?? 0) > NOTIFY_LIMITS.addressesPerChange;

/**
 * A stand-in of the webhook service over `state`, answering as the contract says (addresses kept
 * lowercase and sorted, paged after a cursor); the stubs in `first` may answer a call before it.
 */
export function serveNotify(state: NotifyState, ...first: EndpointStub[]) {
  const find = (id: string) => state.webhooks.find((w) => w.id === id);
  const update = (id: string, patch: Partial<NotifyWebhook>) => {
    state.webhooks = state.webhooks.map((w) => (w.id === id ? { ...w, ...patch } : w));
    return find(id) as NotifyWebhook;
  };
  const watched = (id: string) => (state.addresses[id] ??= []);
  return serveEndpoints(
    ...first,
    on(N.list, () => wrapped({ webhooks: state.webhooks })),
    on(N.get, ({ params }) => {
      const found = find(params.webhookId);
      return found ? wrapped(found) : notFound();
    }),
    on(N.create, ({ body }) => {
      if (tooMany(body.addresses)) return failed(400, 'body/addresses must NOT have more than 1000 items');
      const addresses = [...new Set(body.addresses.map((a) => a.toLowerCase()))].sort();
      const created = webhook({
        id: CREATED_ID,
        name: body.name,
        network: body.network,
        url: body.url,
        categories: (body.categories ?? []) as NotifyWebhook['categories'],
        confirmations: body.confirmations ?? 0,
        addressCount: addresses.length,
      });
      state.webhooks = [...state.webhooks, created];
      state.addresses[CREATED_ID] = addresses;
      return wrapped(created, NotifyMessages.created);
    }),
    on(N.remove, ({ params }) => {
      if (!find(params.webhookId)) return notFound();
      state.webhooks = state.webhooks.filter((w) => w.id !== params.webhookId);
      return wrapped({}, NotifyMessages.deleted);
    }),
    on(N.setStatus, ({ params, body }) => {
      if (!find(params.webhookId)) return notFound();
      const disabledReason = body.status === 'DISABLED' ? NotifyMessages.disabledByUser : null;
      return wrapped(update(params.webhookId, { status: body.status, disabledReason }));
    }),
    on(N.changeAddresses, ({ params, body }) => {
      if (!find(params.webhookId)) return notFound();
      if (tooMany(body.add) || tooMany(body.remove)) return failed(400, 'body/add must NOT have more than 1000 items');
      const before = new Set(watched(params.webhookId));
      const after = new Set(before);
      for (const a of body.add ?? []) after.add(a.toLowerCase());
      for (const a of body.remove ?? []) after.delete(a.toLowerCase());
      state.addresses[params.webhookId] = [...after].sort();
      update(params.webhookId, { addressCount: after.size });
      const added = [...after].filter((a) => !before.has(a)).length;
      const removed = [...before].filter((a) => !after.has(a)).length;
      return wrapped({ added, removed, addressCount: after.size }, NotifyMessages.addressesUpdated);
    }),
    on(N.listAddresses, ({ params, query }) => {
      if (!find(params.webhookId)) return notFound();
      const limit = Number(query.limit ?? 100);
      const matching = watched(params.webhookId).filter((a) => !query.search || a.includes(query.search));
      const rest = query.cursor ? matching.filter((a) => a > (query.cursor as string)) : matching;
      const page = rest.slice(0, limit);
      const nextCursor = rest.length > limit ? (page.at(-1) ?? null) : null;
      return wrapped({ addresses: page, nextCursor, total: matching.length });
    }),
    on(N.deliveries, ({ params, query }) => {
      if (!find(params.webhookId)) return notFound();
      const all = state.deliveries[params.webhookId] ?? [];
      const offset = Number(query.offset ?? 0);
      const limit = Number(query.limit ?? 20);
      return wrapped({ deliveries: all.slice(offset, offset + limit), total: all.length });
    }),
    on(N.replay, ({ params, body }) =>
      find(params.webhookId)
        ? wrapped({ id: 'r1', ...body, nextBlock: body.fromBlock, status: 'RUNNING' }, NotifyMessages.replayStarted)
        : notFound(),
    ),
    on(N.test, ({ params }) =>
      find(params.webhookId) ? wrapped({ statusCode: 202, durationMs: 42, body: '{"received":true}' }) : notFound(),
    ),
  );
}

/** The list and the webhook's page at their routes, starting at `path`; any other path shows "Elsewhere: {path}". */
export function renderWebhookPages(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={`/account/:accountId/${accountRoutes.webhooks}`} element={<WebhooksPage />} />
          <Route path={`/account/:accountId/${accountRoutes.webhook}`} element={<WebhookPage />} />
          <Route path="*" element={<Elsewhere />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function Elsewhere() {
  return <p>Elsewhere: {useLocation().pathname}</p>;
}

export const dialog = async (title: string) =>
  (await screen.findByText(title, { selector: '.ant-modal-title' })).closest('.ant-modal') as HTMLElement;

export const button = (scope: HTMLElement, name: string | RegExp) =>
  within(scope).getByRole('button', { name }) as HTMLButtonElement;

/** The texts of a row's cells. */
export const cells = (row: HTMLElement) => [...row.querySelectorAll(':scope > td')].map((td) => td.textContent);

/** The validation messages shown in `scope`, in form order. */
export const shownErrors = (scope: HTMLElement) =>
  [...scope.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent);

/** Picks `label` in the antd select labelled `field` (antd opens a select on mouse down). */
export async function choose(scope: HTMLElement, field: string, label: string) {
  const input = within(scope).getByLabelText(field);
  fireEvent.mouseDown(
    (input.closest('.ant-select') as HTMLElement).querySelector('.ant-select-selector') as HTMLElement,
  );
  const option = await waitFor(() => {
    const list = document.getElementById(`${input.id}_list`)?.closest('.ant-select-dropdown');
    const found = [...(list?.querySelectorAll('.ant-select-item-option') ?? [])].find((o) => o.textContent === label);
    if (!found) throw new Error(`no option ${label} in ${field}`);
    return found as HTMLElement;
  });
  fireEvent.click(option);
}
