import {
  AppError,
  badRequest,
  type CreateDestinationBody,
  type CreateGasFeeWalletBody,
  type CreateTokenForwardingWalletBody,
  type DestinationWallet,
  ERC20_TOKEN,
  FORWARDING_NETWORKS,
  type ForwardingTransactionList,
  type ForwardingTransactionQuery,
  type GasFeeFundingWallet,
  ForwardingMessages as M,
  NETWORKS,
  type Network,
  networkTokens,
  notFound,
  type SmartContractInfo,
  type SupportedNetworkAndToken,
  type TestWebhookBody,
  type TestWebhookResult,
  type TokenForwardingWallet,
  type WalletStatus,
} from '@ebs/contract';
import { erc20Abi, formatUnits, zeroAddress } from 'viem';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { seal, unseal } from '../../secrets.ts';
import { signingSecretsInForce } from '../accounts/index.ts';
import type { ForwardingChains } from './chain.ts';
import * as destinations from './destinations.store.ts';
import { checkAddress, checkMinimumAmount, checkName, checkNetwork } from './forwarding-rules.ts';
import { listForwards, toTransaction } from './forwards.store.ts';
import type { WalletKeys } from './wallet-keys.ts';
import * as store from './wallets.store.ts';
import { testWebhook } from './webhooks/test-webhook.ts';
import { checkWebhookHeader } from './webhooks/webhook-signature.ts';
import { checkWebhookUrl } from './webhooks/webhook-target.ts';

/** Ours: the spec sets no limit; this keeps one account's scan and lists bounded. */
export const WALLETS_PER_KIND = 1000;

const conflict = (message: string) => new AppError('Conflict', message);
const unavailable = (network: string) => new AppError('Service Unavailable', M.networkUnavailable(network));

const nativeToken = (network: string) => {
  const info = FORWARDING_NETWORKS[network as Network];
  return info?.kind === 'evm' ? info.nativeToken : '';
};

/** The rules of token forwarding's wallets and transactions (spec B §2-§7). */
export class ForwardingService {
  constructor(
    private readonly db: Db,
    private readonly keys: WalletKeys,
    private readonly chains: ForwardingChains,
    private readonly dataKey: Buffer,
    private readonly config: Pick<Config, 'WEBHOOK_ALLOW_PRIVATE_TARGETS' | 'WEBHOOK_TIMEOUT_MS'>,
  ) {}

  /**
   * Each EVM network that has an upstream, with its native token and ERC20 (in production the
   * networks of RPC_UPSTREAMS); Bitcoin needs a backend this service has not.
   */
  supported(): SupportedNetworkAndToken {
    return Object.fromEntries(NETWORKS.filter((n) => this.chains.available(n)).map((n) => [n, networkTokens(n)]));
  }

  /** A network given in a request that this service can forward on now. */
  private network(value: unknown): Network {
    const network = checkNetwork(value);
    if (!this.chains.available(network)) throw badRequest(M.networkNotSupported(network));
    return network;
  }

  // ---- destinations ----

  listDestinations(accountId: string): Promise<DestinationWallet[]> {
    return destinations.listDestinations(this.db, accountId);
  }

  async createDestination(accountId: string, body: CreateDestinationBody): Promise<DestinationWallet> {
    const network = this.network(body.network);
    const name = checkName(body.name);
    const address = checkAddress(body.destinationPublicAddress, 'Destination Public Address');
    if ((await destinations.countDestinations(this.db, accountId)) >= WALLETS_PER_KIND)
      throw conflict(M.walletLimit(WALLETS_PER_KIND));
    const created = await destinations.insertDestination(this.db, { accountId, network, name, address });
    if (!created) throw conflict(M.destinationExists);
    return created;
  }

  async renameDestination(accountId: string, body: CreateDestinationBody): Promise<DestinationWallet> {
    const network = this.network(body.network);
    const address = checkAddress(body.destinationPublicAddress, 'Destination Public Address');
    const renamed = await destinations.renameDestination(this.db, accountId, network, address, checkName(body.name));
    if (!renamed) throw notFound(M.destinationNotFound);
    return renamed;
  }

  async deleteDestination(
    accountId: string,
    body: { network: string; destinationPublicAddress: string },
  ): Promise<void> {
    const network = this.network(body.network);
    const address = checkAddress(body.destinationPublicAddress, 'Destination Public Address');
    if (!(await destinations.deleteDestination(this.db, accountId, network, address)))
      throw notFound(M.destinationNotFound);
  }

  // ---- gas fee funding wallets ----

  async listGasWallets(accountId: string): Promise<GasFeeFundingWallet[]> {
    const rows = await store.listGasWallets(this.db, accountId);
    return rows.map((r) => store.toGasWallet(r, nativeToken(r.network)));
  }

  async createGasWallet(accountId: string, body: CreateGasFeeWalletBody): Promise<GasFeeFundingWallet> {
    const network = this.network(body.network);
    const name = checkName(body.name);
    if ((await store.countGasWallets(this.db, accountId)) >= WALLETS_PER_KIND)
      throw conflict(M.walletLimit(WALLETS_PER_KIND));
    const keyIndex = await store.nextKeyIndex(this.db);
    const row = await store.insertGasWallet(this.db, {
      accountId,
      network,
      name,
      keyIndex,
      address: this.keys.address(keyIndex),
    });
    return store.toGasWallet(row, nativeToken(network));
  }

  async renameGasWallet(accountId: string, id: string, name: string): Promise<GasFeeFundingWallet> {
    const row = await store.renameGasWallet(this.db, accountId, id, checkName(name));
    if (!row) throw notFound(M.walletNotFound);
    return store.toGasWallet(row, nativeToken(row.network));
  }

  /** Reads the wallet's balance from its network now ("Balance has been refreshed."). */
  async refreshGasBalance(accountId: string, id: string): Promise<GasFeeFundingWallet> {
    const wallet = await store.findGasWallet(this.db, accountId, id);
    if (!wallet) throw notFound(M.walletNotFound);
    const balance = await this.nativeBalance(wallet.network, wallet.address);
    const row = await store.setGasBalance(this.db, wallet.id, formatUnits(balance, 18), balance > 0n);
    if (!row) throw notFound(M.walletNotFound);
    return store.toGasWallet(row, nativeToken(row.network));
  }

  /** Refused while forwarding wallets use it or while it holds funds that would be lost with it. */
  async deleteGasWallet(accountId: string, id: string): Promise<void> {
    const wallet = await store.findGasWallet(this.db, accountId, id);
    if (!wallet) throw notFound(M.walletNotFound);
    const users = await store.countWalletsUsingGas(this.db, id);
    if (users > 0) throw conflict(M.gasWalletInUse(users));
    const balance = await this.nativeBalance(wallet.network, wallet.address);
    if (balance > 0n) throw conflict(M.walletHoldsFunds(formatUnits(balance, 18), nativeToken(wallet.network)));
    if (!(await store.softDeleteGasWallet(this.db, accountId, id))) throw notFound(M.walletNotFound);
  }

  // ---- token forwarding wallets ----

  async listWallets(accountId: string, statuses: WalletStatus[]): Promise<TokenForwardingWallet[]> {
    const rows = await store.listForwardingWallets(this.db, accountId, statuses);
    return rows.map((r) => this.toWallet(r));
  }

  async createWallet(accountId: string, body: CreateTokenForwardingWalletBody): Promise<TokenForwardingWallet> {
    const network = this.network(body.network);
    const tokens = networkTokens(network);
    const token = body.token.trim();
    if (!tokens.includes(token)) throw badRequest(M.unknownToken(network, tokens));
    const minimum = checkMinimumAmount(body.minimumForwardingAmount);
    const destination = checkAddress(body.destinationPublicAddress, 'Destination Public Address');
    if (destination === zeroAddress || (await store.isServiceWallet(this.db, destination))) {
      throw badRequest(M.destinationNotAllowed);
    }
    const erc20 = token === ERC20_TOKEN;
    let contract: string | null = null;
    let decimals = 18;
    let gasWalletId: string | null = null;
    if (erc20) {
      contract = checkAddress(body.smartContractAddress, 'Smart Contract Address');
      decimals = (await this.contractInfo(network, contract)).decimals;
    }
    if (erc20 || body.gasFeeFundingWalletId) {
      const gas = await store
        .findGasWallet(this.db, accountId, String(body.gasFeeFundingWalletId ?? '').trim())
        .catch(() => undefined);
      if (!gas) throw badRequest(M.gasWalletNotFound);
      if (gas.network !== network) throw badRequest(M.gasWalletWrongNetwork(network));
      gasWalletId = gas.id;
    }
    const webhook = await this.checkWebhook(body.webhookSetting);
    if ((await store.countForwardingWallets(this.db, accountId)) >= WALLETS_PER_KIND)
      throw conflict(M.walletLimit(WALLETS_PER_KIND));
    const keyIndex = await store.nextKeyIndex(this.db);
    const row = await store.insertForwardingWallet(this.db, {
      accountId,
      network,
      token,
      smartContractAddress: contract,
      tokenDecimals: decimals,
      keyIndex,
      address: this.keys.address(keyIndex),
      minimumForwardingAmount: minimum,
      destinationAddress: destination,
      gasFeeFundingWalletId: gasWalletId,
      webhookUrl: webhook?.url ?? null,
      webhookHeader: webhook?.header ?? null,
      webhookHeaderValueSealed: webhook ? seal(this.dataKey, webhook.headerValue) : null,
    });
    return this.toWallet(row);
  }

  async setStatus(
    accountId: string,
    id: string,
    status: WalletStatus,
    reason: string | null | undefined,
  ): Promise<TokenForwardingWallet> {
    const text = status === 'DISABLED' ? reason?.trim() || null : null;
    const row = await store.setWalletStatus(this.db, accountId, id, status, text);
    if (!row) throw notFound(M.walletNotFound);
    return this.toWallet(row);
  }

  /**
   * Refused while a forward from it is open or while it holds tokens: its key exists only here, so
   * deleting it would lose them (docs/decisions.md).
   */
  async deleteWallet(accountId: string, id: string): Promise<void> {
    const wallet = await store.findForwardingWallet(this.db, accountId, id);
    if (!wallet) throw notFound(M.walletNotFound);
    const chain = this.chains.get(checkNetwork(wallet.network));
    const [balance] = await chain.balances([wallet.address], wallet.smart_contract_address).catch(() => {
      throw unavailable(wallet.network);
    });
    if (balance === undefined) throw unavailable(wallet.network);
    if (balance > 0n) {
      const decimals = wallet.smart_contract_address ? wallet.token_decimals : 18;
      const unit = wallet.smart_contract_address ? `tokens of ${wallet.smart_contract_address}` : wallet.token;
      throw conflict(M.walletHoldsFunds(formatUnits(balance, decimals), unit));
    }
    if (!(await store.softDeleteForwardingWallet(this.db, accountId, id))) {
      throw (await store.findForwardingWallet(this.db, accountId, id))
        ? conflict(M.walletForwarding)
        : notFound(M.walletNotFound);
    }
  }

  // ---- transactions, contract info, webhook test ----

  async listTransactions(accountId: string, query: ForwardingTransactionQuery): Promise<ForwardingTransactionList> {
    const walletId = query.tokenForwardingWalletId?.trim() || undefined;
    const address = query.address?.trim() || undefined;
    const { rows, total } = await listForwards(this.db, accountId, {
      walletId,
      address,
      limit: query.limit,
      offset: query.offset,
    });
    return { tokenForwardingTransactions: rows.map(toTransaction), totalCount: total };
  }

  /** name(), symbol() and decimals() of an ERC-20 contract; a clear 400 when the address is not one. */
  async contractInfo(networkText: string, addressText: string): Promise<SmartContractInfo> {
    const network = this.network(networkText);
    const address = checkAddress(addressText, 'Smart Contract Address') as `0x${string}`;
    const chain = this.chains.get(network);
    const code = (await chain.request('eth_getCode', [address, 'latest']).catch(() => {
      throw unavailable(network);
    })) as string;
    if (!code || code === '0x') throw badRequest(M.notAContract(address));
    try {
      const read = <T>(functionName: 'name' | 'symbol' | 'decimals') =>
        chain.client.readContract({ address, abi: erc20Abi, functionName }) as Promise<T>;
      const [name, symbol, decimals] = await Promise.all([
        read<string>('name'),
        read<string>('symbol'),
        read<number>('decimals'),
      ]);
      return { address, name, symbol, decimals: Number(decimals) };
    } catch {
      throw badRequest(M.notAContract(address));
    }
  }

  /** Posts a signed sample to the URL with the given header and answers what the target said. */
  async testWebhook(accountId: string, body: TestWebhookBody): Promise<TestWebhookResult> {
    const url = body.url.trim();
    if (!url) throw badRequest(M.webhookUrlRequired);
    const secrets = await signingSecretsInForce(this.db, this.dataKey, accountId, new Date());
    return testWebhook({
      url,
      header: body.header?.trim() || null,
      headerValue: body.headerValue?.trim() ?? null,
      secrets,
      config: this.config,
    });
  }

  private async checkWebhook(setting: CreateTokenForwardingWalletBody['webhookSetting']) {
    const url = setting?.url.trim();
    if (!setting || !url) return undefined;
    const header = setting.header?.trim() ?? '';
    const headerValue = setting.headerValue?.trim() ?? '';
    if (!header) throw badRequest(M.webhookHeaderRequired);
    if (!headerValue) throw badRequest(M.webhookHeaderValueRequired);
    checkWebhookHeader(header, headerValue);
    await checkWebhookUrl(url, { allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS });
    return { url, header, headerValue };
  }

  private async nativeBalance(network: string, address: string): Promise<bigint> {
    const chain = this.chains.get(checkNetwork(network));
    const [balance] = await chain.balances([address]).catch(() => [undefined]);
    if (balance === undefined) throw unavailable(network);
    return balance;
  }

  private toWallet(row: store.ForwardingWalletRow): TokenForwardingWallet {
    return store.toForwardingWallet(
      row,
      row.webhook_header_value ? unseal(this.dataKey, row.webhook_header_value) : null,
    );
  }
}

export { webhookFigures } from './forwards.store.ts';
