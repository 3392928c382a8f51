import { endpoint } from '../endpoint.ts';
import {
  CreateDestinationBody,
  CreateGasFeeWalletBody,
  CreateTokenForwardingWalletBody,
  DeleteDestinationBody,
  DestinationList,
  DestinationWallet,
  ForwardingTransactionList,
  ForwardingTransactionQuery,
  GasFeeFundingWallet,
  GasFeeWalletIdBody,
  GasFeeWalletList,
  RenameDestinationBody,
  RenameGasFeeWalletBody,
  SmartContractInfo,
  SmartContractInfoQuery,
  SupportedNetworkAndToken,
  TestWebhookBody,
  TestWebhookResult,
  TokenForwardingWallet,
  TokenForwardingWalletList,
  WalletListQuery,
  WalletParams,
  WalletStatusBody,
} from '../forwarding.ts';
import { AccountHeaders } from '../headers.ts';
import { Empty } from '../wrapper.ts';

const BASE = '/api/v1.0/token-forwarding';
const forwardingCall = { access: 'account', tag: 'token forwarding', headers: AccountHeaders } as const;

/**
 * The token forwarding calls of spec B §7: the gas fee funding wallets, destination wallets,
 * token forwarding wallets, their transactions and webhooks, for members of accounts with the
 * TOKEN_FORWARDING feature.
 */
export const forwardingEndpoints = {
  /** spec B §3: each network with the tokens it forwards. */
  supportedNetworksAndTokens: endpoint({
    ...forwardingCall,
    method: 'GET',
    path: `${BASE}/supported-network-and-token`,
    response: SupportedNetworkAndToken,
  }),

  createGasWallet: endpoint({
    ...forwardingCall,
    method: 'POST',
    path: `${BASE}/gas-fee-funding-wallet`,
    body: CreateGasFeeWalletBody,
    response: GasFeeFundingWallet,
  }),
  listGasWallets: endpoint({
    ...forwardingCall,
    method: 'GET',
    path: `${BASE}/gas-fee-funding-wallet`,
    response: GasFeeWalletList,
  }),
  deleteGasWallet: endpoint({
    ...forwardingCall,
    method: 'DELETE',
    path: `${BASE}/gas-fee-funding-wallet/:walletId`,
    params: WalletParams,
    response: Empty,
  }),
  /** Reads the gas fee funding wallet's balance from its network again. */
  refreshGasBalance: endpoint({
    ...forwardingCall,
    method: 'POST',
    path: `${BASE}/gas-fee-funding-wallet/balance`,
    body: GasFeeWalletIdBody,
    response: GasFeeFundingWallet,
  }),
  renameGasWallet: endpoint({
    ...forwardingCall,
    method: 'POST',
    path: `${BASE}/gas-fee-funding-wallet/name`,
    body: RenameGasFeeWalletBody,
    response: GasFeeFundingWallet,
  }),

  createDestination: endpoint({
    ...forwardingCall,
    method: 'POST',
    path: `${BASE}/destination`,
    body: CreateDestinationBody,
    response: DestinationWallet,
  }),
  listDestinations: endpoint({
    ...forwardingCall,
    method: 'GET',
    path: `${BASE}/destination`,
    response: DestinationList,
  }),
  /** A destination wallet is named by its network and address, in the body. */
  deleteDestination: endpoint({
    ...forwardingCall,
    method: 'DELETE',
    path: `${BASE}/destination`,
    body: DeleteDestinationBody,
    response: Empty,
  }),
  renameDestination: endpoint({
    ...forwardingCall,
    method: 'POST',
    path: `${BASE}/destination/name`,
    body: RenameDestinationBody,
    response: DestinationWallet,
  }),

  createWallet: endpoint({
    ...forwardingCall,
    method: 'POST',
    path: `${BASE}/wallet`,
    body: CreateTokenForwardingWalletBody,
    response: TokenForwardingWallet,
  }),
  listWallets: endpoint({
    ...forwardingCall,
    method: 'GET',
    path: `${BASE}/wallet`,
    query: WalletListQuery,
    response: TokenForwardingWalletList,
  }),
  deleteWallet: endpoint({
    ...forwardingCall,
    method: 'DELETE',
    path: `${BASE}/wallet/:walletId`,
    params: WalletParams,
    response: Empty,
  }),
  /** Enables or disables a token forwarding wallet. */
  setWalletStatus: endpoint({
    ...forwardingCall,
    method: 'POST',
    path: `${BASE}/wallet/status`,
    body: WalletStatusBody,
    response: TokenForwardingWallet,
  }),

  listTransactions: endpoint({
    ...forwardingCall,
    method: 'GET',
    path: `${BASE}/transaction`,
    query: ForwardingTransactionQuery,
    response: ForwardingTransactionList,
  }),
  /** An ERC-20 contract's name, symbol and decimals, read from its network. */
  contractInfo: endpoint({
    ...forwardingCall,
    method: 'GET',
    path: `${BASE}/smart-contract-info`,
    query: SmartContractInfoQuery,
    response: SmartContractInfo,
  }),
  /** Sends a signed sample delivery to a webhook URL and answers what it answered. */
  testWebhook: endpoint({
    ...forwardingCall,
    method: 'POST',
    path: `${BASE}/testWebhook`,
    body: TestWebhookBody,
    response: TestWebhookResult,
  }),
};
