import { type Static, Type } from '@sinclair/typebox';
import { defaulted } from './endpoint.ts';
import { NETWORKS, type Network } from './networks.ts';

/**
 * spec B §3: the token forwarding networks. EVM networks run through the RPC network of the same
 * chain and carry their native token and ERC20; the Bitcoin networks need a Bitcoin backend,
 * which this service does not have (docs/decisions.md).
 */
export const FORWARDING_NETWORKS: Record<
  Network,
  { kind: 'evm'; rpcPath: string; nativeToken: string } | { kind: 'bitcoin' }
> = {
  ETHEREUM_SEPOLIA: { kind: 'evm', rpcPath: 'ethereum/sepolia', nativeToken: 'ETH' },
  ETHEREUM_MAINNET: { kind: 'evm', rpcPath: 'ethereum/mainnet', nativeToken: 'ETH' },
  BITCOIN_MAINNET: { kind: 'bitcoin' },
  BITCOIN_TESTNET: { kind: 'bitcoin' },
  BSC_MAINNET: { kind: 'evm', rpcPath: 'bsc/mainnet', nativeToken: 'BNB' },
  BSC_TESTNET: { kind: 'evm', rpcPath: 'bsc/testnet', nativeToken: 'BNB' },
  POLYGON_MAINNET: { kind: 'evm', rpcPath: 'polygon/mainnet', nativeToken: 'POL' },
  POLYGON_AMOY: { kind: 'evm', rpcPath: 'polygon/amoy', nativeToken: 'POL' },
  AURORA_MAINNET: { kind: 'evm', rpcPath: 'aurora/mainnet', nativeToken: 'ETH' },
  AURORA_TESTNET: { kind: 'evm', rpcPath: 'aurora/testnet', nativeToken: 'ETH' },
};

/** spec B §3: the token name that stands for any ERC-20 contract. */
export const ERC20_TOKEN = 'ERC20';

export const isNetwork = (value: unknown): value is Network => (NETWORKS as readonly unknown[]).includes(value);

/** The tokens a network forwards: its native token, then ERC20. */
export function networkTokens(network: Network): string[] {
  const info = FORWARDING_NETWORKS[network];
  return info.kind === 'evm' ? [info.nativeToken, ERC20_TOKEN] : [];
}

/** The usage resource each forward is billed under (one fee per transfer). */
export const forwardingResource = (network: Network) => `TOKEN_FORWARDING_${network}`;
export const FORWARDING_RESOURCES = NETWORKS.filter((n) => FORWARDING_NETWORKS[n].kind === 'evm').map(
  forwardingResource,
);

/** spec B §2, §9: network names display with the first underscore as a space. */
export const displayNetworkName = (network: string) => network.replace('_', ' ');

/** spec B §9: minimum forwarding amount default, range and step. */
export const MINIMUM_FORWARDING_AMOUNT = { default: 0.00001, min: 0, max: 100, step: 0.00001 } as const;

export const WalletStatus = Type.Union([Type.Literal('ENABLED'), Type.Literal('DISABLED')]);
export type WalletStatus = Static<typeof WalletStatus>;

/** Ours: the spec sets no bounds; these keep rows and headers sane. */
export const WALLET_NAME_MAX = 100;
export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_HEADER_MAX = 256;
export const WEBHOOK_HEADER_VALUE_MAX = 4096;
export const DISABLE_REASON_MAX = 500;

const NetworkText = Type.String({ maxLength: 64, description: 'a network identifier, e.g. ETHEREUM_SEPOLIA' });
const AddressText = Type.String({ maxLength: 128, description: 'a 0x address of 40 hex characters' });
const NameText = Type.String({ maxLength: WALLET_NAME_MAX });
const AmountInput = Type.Union([Type.Number(), Type.String({ maxLength: 40 })], {
  description: 'token units, 0 to 100, at most 5 decimals',
});
const Uuid = Type.String({ format: 'uuid' });
const DateTime = Type.String({ format: 'date-time' });
const Nullable = <T extends import('@sinclair/typebox').TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** spec B §3 Destination wallet. */
export const DestinationWallet = Type.Object({
  id: Type.String(),
  name: Type.String(),
  network: Type.String(),
  destinationPublicAddress: Type.String(),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type DestinationWallet = Static<typeof DestinationWallet>;

export const CreateDestinationBody = Type.Object(
  { network: NetworkText, name: NameText, destinationPublicAddress: AddressText },
  { additionalProperties: false },
);
export type CreateDestinationBody = Static<typeof CreateDestinationBody>;
export const DeleteDestinationBody = Type.Object(
  { network: NetworkText, destinationPublicAddress: AddressText },
  { additionalProperties: false },
);
export type DeleteDestinationBody = Static<typeof DeleteDestinationBody>;
export const RenameDestinationBody = CreateDestinationBody;
export const DestinationList = Type.Array(DestinationWallet);

/** spec B §3 Gas fee funding wallet: `updatedAt` is when its balance was last checked. */
export const GasFeeFundingWallet = Type.Object({
  id: Type.String(),
  name: Type.String(),
  network: Type.String(),
  publicAddress: Type.String(),
  token: Type.String(),
  balance: Type.String({ description: 'native token units, decimal text' }),
  updatedAt: DateTime,
  createdAt: DateTime,
});
export type GasFeeFundingWallet = Static<typeof GasFeeFundingWallet>;

export const CreateGasFeeWalletBody = Type.Object(
  { network: NetworkText, name: NameText },
  { additionalProperties: false },
);
export type CreateGasFeeWalletBody = Static<typeof CreateGasFeeWalletBody>;
export const GasFeeWalletIdBody = Type.Object({ id: Uuid }, { additionalProperties: false });
export const RenameGasFeeWalletBody = Type.Object({ id: Uuid, name: NameText }, { additionalProperties: false });
export const GasFeeWalletList = Type.Object({ gasFeeFundingWallets: Type.Array(GasFeeFundingWallet) });
export type GasFeeWalletList = Static<typeof GasFeeWalletList>;

export const WalletParams = Type.Object({ walletId: Uuid }, { additionalProperties: false });

/** A wallet's webhook: the header and its value are sent with every delivery. */
export const WebhookSetting = Type.Object({
  url: Type.String(),
  header: Type.String(),
  headerValue: Type.String(),
});
export type WebhookSetting = Static<typeof WebhookSetting>;

const WebhookSettingInput = Type.Object(
  {
    url: Type.String({ maxLength: WEBHOOK_URL_MAX }),
    header: Type.Optional(Type.String({ maxLength: WEBHOOK_HEADER_MAX })),
    headerValue: Type.Optional(Type.String({ maxLength: WEBHOOK_HEADER_VALUE_MAX })),
    secret: Type.Optional(
      Type.String({ maxLength: 200, description: 'ignored: deliveries are signed with the account signing secret' }),
    ),
  },
  { additionalProperties: false },
);

/** spec B §3 Token forwarding wallet. */
export const TokenForwardingWallet = Type.Object({
  id: Type.String(),
  network: Type.String(),
  token: Type.String(),
  smartContractAddress: Nullable(Type.String()),
  publicAddress: Type.String(),
  status: WalletStatus,
  statusReason: Nullable(Type.String()),
  minimumForwardingAmount: Type.String({ description: 'token units, decimal text' }),
  destinationPublicAddress: Type.String(),
  gasFeeFundingWalletId: Nullable(Type.String()),
  webhookSetting: Nullable(WebhookSetting),
  balance: Nullable(Type.String({ description: 'token units at the last check' })),
  balanceLastCheckedAt: Nullable(DateTime),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type TokenForwardingWallet = Static<typeof TokenForwardingWallet>;

export const CreateTokenForwardingWalletBody = Type.Object(
  {
    network: NetworkText,
    token: Type.String({ maxLength: 32 }),
    smartContractAddress: Type.Optional(Nullable(AddressText)),
    webhookSetting: Type.Optional(Nullable(WebhookSettingInput)),
    minimumForwardingAmount: AmountInput,
    destinationPublicAddress: AddressText,
    gasFeeFundingWalletId: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  },
  { additionalProperties: false },
);
export type CreateTokenForwardingWalletBody = Static<typeof CreateTokenForwardingWalletBody>;

export const WalletListQuery = Type.Object(
  {
    statusIn: Type.Optional(
      Type.String({ maxLength: 100, description: 'statuses as a JSON array text, e.g. ["ENABLED","DISABLED"]' }),
    ),
  },
  { additionalProperties: false },
);
export const TokenForwardingWalletList = Type.Object({ tokenForwardingWallets: Type.Array(TokenForwardingWallet) });
export type TokenForwardingWalletList = Static<typeof TokenForwardingWalletList>;

export const WalletStatusBody = Type.Object(
  {
    id: Uuid,
    reason: Type.Optional(Nullable(Type.String({ maxLength: DISABLE_REASON_MAX }))),
    newStatus: WalletStatus,
  },
  { additionalProperties: false },
);
export type WalletStatusBody = Static<typeof WalletStatusBody>;

/** A forward's progress: recorded before each next step (docs/decisions.md). */
export const ForwardStatus = Type.Union(
  /* @__PURE__ */ ['PENDING', 'FUNDING_GAS', 'SENDING', 'CONFIRMING', 'COMPLETED', 'FAILED'].map((s) =>
    Type.Literal(s),
  ),
);
export type ForwardStatus = 'PENDING' | 'FUNDING_GAS' | 'SENDING' | 'CONFIRMING' | 'COMPLETED' | 'FAILED';

export const WebhookStatus = Type.Union(
  /* @__PURE__ */ ['NONE', 'PENDING', 'DELIVERED', 'FAILED'].map((s) => Type.Literal(s)),
);
export type WebhookStatus = 'NONE' | 'PENDING' | 'DELIVERED' | 'FAILED';

/** One delivery attempt as kept in webhookLog. */
export const WebhookAttempt = Type.Object({
  attempt: Type.Integer(),
  at: DateTime,
  url: Type.String(),
  statusCode: Nullable(Type.Integer()),
  durationMs: Type.Integer(),
  response: Type.String({ description: 'the start of the answer body, or the error' }),
});
export type WebhookAttempt = Static<typeof WebhookAttempt>;

/** spec B §3 Token forwarding transaction. */
export const TokenForwardingTransaction = Type.Object({
  id: Type.String(),
  tokenForwardingWalletId: Type.String(),
  network: Type.String(),
  token: Type.String(),
  smartContractAddress: Nullable(Type.String()),
  status: ForwardStatus,
  amount: Type.String({ description: 'token units, decimal text' }),
  fromAddress: Type.String(),
  toAddress: Type.String(),
  metadata: Type.Object({
    originalBalance: Type.String(),
    confirmations: Type.Integer(),
    transactionHash: Nullable(Type.String()),
    gasFundingTransactionHash: Nullable(Type.String()),
    transactionReceipt: Nullable(Type.Record(Type.String(), Type.Unknown())),
    error: Type.Optional(Type.String()),
  }),
  webhookStatus: WebhookStatus,
  webhookAttempt: Type.Integer(),
  webhookLog: Type.Array(WebhookAttempt),
  webhookId: Nullable(Type.String()),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type TokenForwardingTransaction = Static<typeof TokenForwardingTransaction>;

export const TRANSACTION_LIST_MAX = 1000;
export const ForwardingTransactionQuery = Type.Object(
  {
    tokenForwardingWalletId: Type.Optional(Type.String({ maxLength: 64 })),
    address: Type.Optional(Type.String({ maxLength: 128 })),
    limit: defaulted(Type.Integer({ minimum: 1, maximum: TRANSACTION_LIST_MAX, default: TRANSACTION_LIST_MAX })),
    offset: defaulted(Type.Integer({ minimum: 0, default: 0 })),
  },
  { additionalProperties: false },
);
export type ForwardingTransactionQuery = Static<typeof ForwardingTransactionQuery>;
export const ForwardingTransactionList = Type.Object({
  tokenForwardingTransactions: Type.Array(TokenForwardingTransaction),
  totalCount: Type.Integer(),
});
export type ForwardingTransactionList = Static<typeof ForwardingTransactionList>;

/** spec B §3: network → token names. */
export const SupportedNetworkAndToken = Type.Record(Type.String(), Type.Array(Type.String()));
export type SupportedNetworkAndToken = Static<typeof SupportedNetworkAndToken>;

export const SmartContractInfoQuery = Type.Object(
  { network: NetworkText, smartContractAddress: AddressText },
  { additionalProperties: false },
);
export const SmartContractInfo = Type.Object({
  address: Type.String(),
  name: Type.String(),
  symbol: Type.String(),
  decimals: Type.Integer(),
});
export type SmartContractInfo = Static<typeof SmartContractInfo>;

export const TestWebhookBody = Type.Object(
  {
    url: Type.String({ maxLength: WEBHOOK_URL_MAX }),
    header: Type.Optional(Type.String({ maxLength: WEBHOOK_HEADER_MAX })),
    headerValue: Type.Optional(Type.String({ maxLength: WEBHOOK_HEADER_VALUE_MAX })),
  },
  { additionalProperties: false },
);
export type TestWebhookBody = Static<typeof TestWebhookBody>;
/** What the target answered to the signed sample. */
export const TestWebhookResult = Type.Object({
  url: Type.String(),
  status: Type.Integer(),
  body: Type.String(),
});
export type TestWebhookResult = Static<typeof TestWebhookResult>;

/** spec B §5, §8 and ours: the token forwarding texts. */
export const ForwardingMessages = {
  // spec B §8 success messages
  walletNameUpdated: 'Wallet name has been updated.',
  walletDeleted: 'Wallet has been deleted',
  walletDisabled: 'Wallet has been disabled',
  walletEnabled: 'Wallet has been enabled',
  balanceRefreshed: 'Balance has been refreshed.',
  walletCreated: 'Wallet has been created.',
  // spec B §5
  selectWallet: 'Please select a wallet.',
  networkRequired: 'Network is required.',
  tokenRequired: 'Token is required.',
  smartContractAddressRequired: 'Smart Contract Address is required.',
  minimumForwardingAmountRequired: 'Minimum Forwarding Amount is required.',
  destinationPublicAddressRequired: 'Destination Public Address is required.',
  gasFeeFundingWalletIdRequired: 'Gas Fee Funding Wallet ID is required.',
  webhookHeaderRequired: 'Webhook Header is required.',
  webhookHeaderValueRequired: 'Webhook Header Value is required.',
  nameRequired: 'Name is required.',
  nameInvalid: 'Name cannot hold line breaks, tabs or other control characters.',
  webhookUrlRequired: 'Webhook URL is required.',
  // spec B §2 delete confirmation
  deleteWarning: 'This wallet will be permanently deleted, related services may be effected.',
  // ours: the server's refusals
  unknownNetwork: (network: string) => `Unknown network "${network}".`,
  networkNotSupported: (network: string) =>
    `${displayNetworkName(network)} is not supported for token forwarding on this service.`,
  unknownToken: (network: string, tokens: string[]) =>
    `Token must be one of ${tokens.join(', ')} on ${displayNetworkName(network)}.`,
  invalidAddress: (field: string) => `${field} must be a 0x address of 40 hexadecimal characters.`,
  amountOutOfRange: `Minimum Forwarding Amount must be a number from ${MINIMUM_FORWARDING_AMOUNT.min} to ${MINIMUM_FORWARDING_AMOUNT.max} with at most 5 decimals.`,
  gasWalletNotFound: 'Gas Fee Funding Wallet ID does not name a gas fee funding wallet of this account.',
  gasWalletWrongNetwork: (network: string) =>
    `The gas fee funding wallet must be on ${displayNetworkName(network)}, the network of the forwarding wallet.`,
  destinationNotAllowed:
    'Destination Public Address must be an address you control: not the zero address, nor a forwarding or gas fee funding wallet.',
  destinationExists: 'This account already has a destination wallet with this address on this network.',
  destinationNotFound: 'No destination wallet of this account has this address on this network.',
  walletNotFound: 'Wallet not found.',
  newStatusInvalid: 'newStatus must be ENABLED or DISABLED.',
  notAContract: (address: string) => `${address} is not an ERC-20 contract on this network (no name and symbol).`,
  networkUnavailable: (network: string) =>
    `${displayNetworkName(network)} cannot be reached right now. Try again later.`,
  walletHoldsFunds: (balance: string, token: string) =>
    `This wallet still holds ${balance} ${token}. It can be deleted once it is empty.`,
  walletForwarding: 'A forward from this wallet is in progress. Try again once it has completed.',
  gasWalletInUse: (count: number) =>
    `This gas fee funding wallet pays the gas of ${count} token forwarding wallet${count === 1 ? '' : 's'}. Delete ${count === 1 ? 'it' : 'them'} first.`,
  webhookUrlInvalid: 'Webhook URL must be an http or https URL.',
  webhookTargetRefused: 'Webhook URL must not point to a private, loopback or link-local address.',
  webhookHeaderInvalid: 'Webhook Header must be a valid HTTP header name.',
  webhookHeaderValueInvalid: 'Webhook Header Value must not contain line breaks.',
  webhookHeaderReserved: (header: string) => `Webhook Header must not be "${header}": every delivery sets it.`,
  webhookUnreachable: (reason: string) => `The webhook URL could not be reached: ${reason}`,
  featureDisabled: 'Token forwarding is not enabled for this account.',
  walletLimit: (max: number) => `An account holds at most ${max} wallets of each kind.`,
} as const;
