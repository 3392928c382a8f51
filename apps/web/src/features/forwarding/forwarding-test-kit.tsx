import {
  type DestinationWallet,
  endpoints,
  ForwardingMessages,
  type GasFeeFundingWallet,
  type SupportedNetworkAndToken,
  type TokenForwardingTransaction,
  type TokenForwardingWallet,
} from '@ebs/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { type EndpointStub, failed, on, serveEndpoints, wrapped } from '../../testing/page-test-kit';

/** Test support of the token forwarding pages: sample wallets, a stand-in server, and the pages at their routes. */

export const ACCOUNT = '11111111-1111-4111-8111-111111111111';
export const ROUTES = {
  wallets: `/account/${ACCOUNT}/services/token-forwarding/wallets`,
  createWallet: `/account/${ACCOUNT}/services/token-forwarding/wallets/create`,
  transactions: `/account/${ACCOUNT}/services/token-forwarding/transactions`,
};
const AT = '2026-11-21T12:00:00.000Z';
/** When a refresh checked a gas fee wallet's balance again. */
export const CHECKED_AGAIN_AT = '2026-11-22T09:30:00.000Z';

export const ADDRESS_A = '0x52908400098527886E0F7030069857D2E4169EE7';
export const ADDRESS_B = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
export const CONTRACT = '0xde709f2102306220921060314715629080e2fb77';
export const HASH = '0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b';

export const NETWORKS: SupportedNetworkAndToken = {
  ETHEREUM_SEPOLIA: ['ETH', 'ERC20'],
  BSC_TESTNET: ['BNB', 'ERC20'],
};

export const forwardingWallet = (patch: Partial<TokenForwardingWallet> = {}): TokenForwardingWallet => ({
  id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  network: 'ETHEREUM_SEPOLIA',
  token: 'ETH',
  smartContractAddress: null,
  publicAddress: ADDRESS_A,
  status: 'ENABLED',
  statusReason: null,
  minimumForwardingAmount: '0.00001',
  destinationPublicAddress: ADDRESS_B,
  gasFeeFundingWalletId: null,
  webhookSetting: null,
  balance: '0',
  balanceLastCheckedAt: AT,
  createdAt: AT,
  updatedAt: AT,
  ...patch,
});

export const gasFeeWallet = (patch: Partial<GasFeeFundingWallet> = {}): GasFeeFundingWallet => ({
  id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  name: 'Gas payer',
  network: 'ETHEREUM_SEPOLIA',
  publicAddress: '0x1111111111111111111111111111111111111111',
  token: 'ETH',
  balance: '0.5',
  updatedAt: AT,
  createdAt: AT,
  ...patch,
});

export const destination = (patch: Partial<DestinationWallet> = {}): DestinationWallet => ({
  id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc',
  name: 'Treasury',
  network: 'ETHEREUM_SEPOLIA',
  destinationPublicAddress: ADDRESS_B,
  createdAt: AT,
  updatedAt: AT,
  ...patch,
});

export const transaction = (patch: Partial<TokenForwardingTransaction> = {}): TokenForwardingTransaction => ({
  id: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd',
  tokenForwardingWalletId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  network: 'ETHEREUM_SEPOLIA',
  token: 'ETH',
  smartContractAddress: null,
  status: 'COMPLETED',
  amount: '0.25',
  fromAddress: ADDRESS_A,
  toAddress: ADDRESS_B,
  metadata: {
    originalBalance: '0.25',
    confirmations: 3,
    transactionHash: HASH,
    gasFundingTransactionHash: null,
    transactionReceipt: { gasUsed: '21000', status: 1 },
  },
  webhookStatus: 'DELIVERED',
  webhookAttempt: 1,
  webhookLog: [],
  webhookId: null,
  createdAt: AT,
  updatedAt: AT,
  ...patch,
});

export interface ServerState {
  wallets: TokenForwardingWallet[];
  gasFeeWallets: GasFeeFundingWallet[];
  destinations: DestinationWallet[];
  transactions: TokenForwardingTransaction[];
}

export const emptyState = (patch: Partial<ServerState> = {}): ServerState => ({
  wallets: [],
  gasFeeWallets: [],
  destinations: [],
  transactions: [],
  ...patch,
});

const F = endpoints.forwarding;
/** The id the stand-in gives a created wallet. */
export const CREATED_ID = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';
export const SIGNING_SECRET = 'whsec_c2VjcmV0';

/**
 * A stand-in of the token forwarding service over `state`, answering as the contract says; the
 * stubs in `first` may answer a call before it (a refusal, say).
 */
export function serveForwarding(state: ServerState, ...first: EndpointStub[]) {
  const notFound = () => failed(404, ForwardingMessages.walletNotFound, 'Not Found');
  return serveEndpoints(
    ...first,
    on(F.listWallets, () => wrapped({ tokenForwardingWallets: state.wallets })),
    on(F.listGasWallets, () => wrapped({ gasFeeFundingWallets: state.gasFeeWallets })),
    on(F.listDestinations, () => wrapped(state.destinations)),
    on(F.supportedNetworksAndTokens, () => wrapped(NETWORKS)),
    on(F.listTransactions, ({ query: { address, tokenForwardingWalletId } }) => {
      const rows = state.transactions.filter(
        (t) =>
          (!address || t.fromAddress === address || t.toAddress === address) &&
          (!tokenForwardingWalletId || t.tokenForwardingWalletId === tokenForwardingWalletId),
      );
      return wrapped({ tokenForwardingTransactions: rows, totalCount: rows.length });
    }),
    on(F.setWalletStatus, ({ body }) => {
      const wallet = state.wallets.find((w) => w.id === body.id);
      if (!wallet) return notFound();
      const changed = { ...wallet, status: body.newStatus };
      state.wallets = state.wallets.map((w) => (w.id === body.id ? changed : w));
      return wrapped(changed);
    }),
    on(F.refreshGasBalance, ({ body }) => {
      const wallet = state.gasFeeWallets.find((w) => w.id === body.id);
      if (!wallet) return notFound();
      const changed = { ...wallet, balance: '0.75', updatedAt: CHECKED_AGAIN_AT };
      state.gasFeeWallets = state.gasFeeWallets.map((w) => (w.id === body.id ? changed : w));
      return wrapped(changed);
    }),
    on(F.renameGasWallet, ({ body }) => {
      const wallet = state.gasFeeWallets.find((w) => w.id === body.id);
      if (!wallet) return notFound();
      const changed = { ...wallet, name: body.name };
      state.gasFeeWallets = state.gasFeeWallets.map((w) => (w.id === body.id ? changed : w));
      return wrapped(changed);
    }),
    on(F.renameDestination, ({ body }) => {
      const wallet = state.destinations.find((w) => w.destinationPublicAddress === body.destinationPublicAddress);
      if (!wallet) return failed(404, ForwardingMessages.destinationNotFound, 'Not Found');
      const changed = { ...wallet, name: body.name };
      state.destinations = state.destinations.map((w) => (w === wallet ? changed : w));
      return wrapped(changed);
    }),
    on(F.deleteDestination, ({ body }) => {
      state.destinations = state.destinations.filter(
        (w) => w.destinationPublicAddress !== body.destinationPublicAddress,
      );
      return wrapped({});
    }),
    on(F.deleteWallet, ({ params }) => {
      state.wallets = state.wallets.filter((w) => w.id !== params.walletId);
      return wrapped({});
    }),
    on(F.deleteGasWallet, ({ params }) => {
      state.gasFeeWallets = state.gasFeeWallets.filter((w) => w.id !== params.walletId);
      return wrapped({});
    }),
    on(F.createDestination, ({ body }) => wrapped(destination({ id: CREATED_ID, ...body }))),
    on(F.createGasWallet, ({ body }) => wrapped(gasFeeWallet({ id: CREATED_ID, ...body }))),
    on(F.createWallet, ({ body }) =>
      wrapped(
        forwardingWallet({
          id: CREATED_ID,
          network: body.network,
          token: body.token,
          smartContractAddress: body.smartContractAddress ?? null,
          minimumForwardingAmount: String(body.minimumForwardingAmount),
          destinationPublicAddress: body.destinationPublicAddress,
          gasFeeFundingWalletId: body.gasFeeFundingWalletId ?? null,
          webhookSetting: body.webhookSetting
            ? {
                url: body.webhookSetting.url,
                header: body.webhookSetting.header ?? '',
                headerValue: body.webhookSetting.headerValue ?? '',
              }
            : null,
        }),
      ),
    ),
    on(F.contractInfo, ({ query: { smartContractAddress = '' } }) =>
      smartContractAddress === CONTRACT
        ? wrapped({ address: CONTRACT, name: 'Test Token', symbol: 'TST', decimals: 18 })
        : failed(400, ForwardingMessages.notAContract(smartContractAddress)),
    ),
    on(F.testWebhook, ({ body }) => wrapped({ url: body.url, status: 200, body: '{"ok":true}' })),
    on(endpoints.accounts.signingSecret, () => wrapped({ secret: SIGNING_SECRET })),
  );
}

/** Renders the given pages at their routes, starting at `path` with navigation `state`. */
export function renderRoutes(path: string, pages: Record<string, ReactElement>, state?: unknown) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[{ pathname: path, state }]}>
        <Routes>
          {Object.entries(pages).map(([pattern, element]) => (
            <Route key={pattern} path={pattern} element={element} />
          ))}
          <Route path="*" element={<Elsewhere />} />
        </Routes>
        <LocationState />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function Elsewhere() {
  return <p>Elsewhere: {useLocation().pathname}</p>;
}

/** The current navigation state as JSON, for tests that check what a page hands to the next one. */
function LocationState() {
  return <output data-testid="location-state">{JSON.stringify(useLocation().state ?? null)}</output>;
}

export const locationState = () => JSON.parse(screen.getByTestId('location-state').textContent ?? 'null');

export const dialog = async (title: string) =>
  (await screen.findByText(title, { selector: '.ant-modal-title' })).closest('.ant-modal') as HTMLElement;

export const drawer = async (title: string) =>
  (await screen.findByText(title, { selector: '.ant-drawer-title' })).closest('.ant-drawer-content') as HTMLElement;

export const button = (scope: HTMLElement, name: string) =>
  within(scope).getByRole('button', { name }) as HTMLButtonElement;

/** Opens the antd select labelled `field` (antd opens on mouse down) and answers its input and its list. */
async function openSelect(field: string) {
  const input = screen.getByLabelText(field);
  fireEvent.mouseDown(
    (input.closest('.ant-select') as HTMLElement).querySelector('.ant-select-selector') as HTMLElement,
  );
  const list = await waitFor(() => {
    const found = document.getElementById(`${input.id}_list`)?.closest('.ant-select-dropdown');
    if (!found) throw new Error(`no open list for ${field}`);
    return found as HTMLElement;
  });
  return { input, options: () => [...list.querySelectorAll('.ant-select-item-option')] as HTMLElement[] };
}

/** Picks `label` in the antd select labelled `field`. */
export async function choose(field: string, label: string) {
  const { options } = await openSelect(field);
  const option = await waitFor(() => {
    const found = options().find((o) => o.textContent === label);
    if (!found) throw new Error(`no option ${label} in ${field}`);
    return found;
  });
  fireEvent.click(option);
}

/** The option texts of the antd select labelled `field`; the list is closed again. */
export async function optionsOf(field: string) {
  const { input, options } = await openSelect(field);
  const texts = options().map((o) => o.textContent);
  fireEvent.keyDown(input, { key: 'Escape', code: 'Escape', keyCode: 27 });
  return texts;
}
