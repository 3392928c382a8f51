import { FORWARDING_NETWORKS, findRpcNetwork, MULTICALL3_ADDRESS, type Network } from '@ebs/contract';
import {
  createPublicClient,
  custom,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  multicall3Abi,
  type PublicClient,
  toFunctionSelector,
} from 'viem';

/** What the forwarding code needs of the RPC gateway: server-side calls through the network's upstreams. */
export interface ChainRpc {
  call(path: string, payload: unknown): Promise<unknown>;
  usesLocalNode(path: string): boolean;
  isAvailable(path: string): boolean;
}

interface RpcAnswer {
  id?: number;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export class ChainCallError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

/** Reads are sent as JSON-RPC batches of this many calls (where a network has no Multicall3). */
const BATCH = 100;

/**
 * Balances read by one Multicall3 call: about 7 000 gas each (3.6 M gas for 500 native balances,
 * 3.3 M for 500 ERC-20 ones), far below the cap nodes put on `eth_call` (geth's default is 50 M),
 * and 220 KB of call data, 160 KB of answer (geth takes up to 5 MB).
 */
const MULTICALL_SIZE = 500;

/** `balanceOf(address)` of ERC-20 and `getEthBalance(address)` of Multicall3, hashed once for every wallet's call. */
const BALANCE_OF = toFunctionSelector('balanceOf(address)');
const GET_ETH_BALANCE = toFunctionSelector('getEthBalance(address)');

/** The call data of a function taking one address (the ABI's left-padded 32-byte word). */
const callWithAddress = (selector: Hex, address: string): Hex =>
  `${selector}${address.slice(2).toLowerCase().padStart(64, '0')}`;

/** An answer that is hex data is a balance (no data: 0, as a call to an address without code gives). */
const asBalance = (data: unknown) =>
  typeof data === 'string' && /^0x[0-9a-f]*$/i.test(data) ? BigInt(data === '0x' ? 0 : data) : undefined;

/** Real networks' usual confirmation depth; a local node mines only on demand, so it needs 1. */
const DEFAULT_CONFIRMATIONS: Partial<Record<Network, number>> = {
  ETHEREUM_MAINNET: 12,
  ETHEREUM_SEPOLIA: 3,
  BSC_MAINNET: 15,
  BSC_TESTNET: 3,
  POLYGON_MAINNET: 32,
  POLYGON_AMOY: 3,
  AURORA_MAINNET: 3,
  AURORA_TESTNET: 3,
};

/** One EVM forwarding network as the engine sees it: batched reads and a viem client. */
export class ForwardingChain {
  readonly path: string;
  readonly chainId: number;
  readonly client: PublicClient;
  readonly confirmations: number;
  private multicall3: Promise<boolean> | undefined;

  constructor(
    readonly network: Network,
    private readonly rpc: ChainRpc,
    configured: Partial<Record<Network, number>> = {},
  ) {
    const info = FORWARDING_NETWORKS[network];
    if (info.kind !== 'evm') throw new Error(`${network} is not an EVM network`);
    const rpcNetwork = findRpcNetwork(info.rpcPath);
    if (!rpcNetwork) throw new Error(`${network} has no RPC network`);
    this.path = info.rpcPath;
    this.chainId = rpcNetwork.chainId;
    this.confirmations =
      configured[network] ?? (rpc.usesLocalNode(this.path) ? 1 : (DEFAULT_CONFIRMATIONS[network] ?? 1));
    this.client = createPublicClient({
      transport: custom({ request: ({ method, params }) => this.request(method, params) }),
    });
  }

  /** One call; a JSON-RPC error becomes a ChainCallError with its code. */
  async request(method: string, params: unknown): Promise<unknown> {
    const answer = (await this.rpc.call(this.path, {
      jsonrpc: '2.0',
      id: 1,
      method,
      params: params ?? [],
    })) as RpcAnswer;
    if (answer.error) throw new ChainCallError(answer.error.message, answer.error.code);
    return answer.result;
  }

  async gasPrice(): Promise<bigint> {
    return BigInt((await this.request('eth_gasPrice', [])) as string);
  }

  /** The next nonce of an address, counting its transactions still in the node's pool. */
  async pendingNonce(address: string): Promise<number> {
    return Number(BigInt((await this.request('eth_getTransactionCount', [address, 'pending'])) as string));
  }

  async nativeBalance(address: string): Promise<bigint> {
    return BigInt((await this.request('eth_getBalance', [address, 'latest'])) as string);
  }

  /** Sends a signed transaction; one the node already has, or has already mined, is not an error. */
  async sendRaw(raw: string): Promise<void> {
    try {
      await this.request('eth_sendRawTransaction', [raw]);
    } catch (error) {
      const known = /already known|known transaction|nonce too low|already imported/i;
      if (!(error instanceof ChainCallError) || !known.test(error.message)) throw error;
    }
  }

  /** Many calls in JSON-RPC batches; each answer is its result or a ChainCallError. */
  async batch(calls: Array<{ method: string; params: unknown[] }>): Promise<Array<unknown>> {
    const results: unknown[] = new Array(calls.length);
    for (let start = 0; start < calls.length; start += BATCH) {
      const chunk = calls.slice(start, start + BATCH);
      const answers = (await this.rpc.call(
        this.path,
        chunk.map((c, i) => ({ jsonrpc: '2.0', id: start + i, method: c.method, params: c.params })),
      )) as RpcAnswer[];
      if (!Array.isArray(answers)) throw new ChainCallError('the node did not answer the batch');
      for (const answer of answers) {
        if (typeof answer.id !== 'number') continue;
        results[answer.id] = answer.error ? new ChainCallError(answer.error.message, answer.error.code) : answer.result;
      }
    }
    return results;
  }

  /**
   * The balance of each address in wei (native) or token base units (ERC-20); undefined when
   * unreadable. Read through Multicall3 where the network has it: a few `eth_call`s for thousands
   * of wallets, where JSON-RPC batches cost the node (and a paid provider's bill, and its rate
   * limit) one request per wallet (docs/performance.md).
   */
  async balances(addresses: string[], contract?: string | null): Promise<Array<bigint | undefined>> {
    if (!(await this.hasMulticall3())) return this.batchBalances(addresses, contract);
    const balances: Array<bigint | undefined> = [];
    for (let start = 0; start < addresses.length; start += MULTICALL_SIZE) {
      balances.push(...(await this.multicallBalances(addresses.slice(start, start + MULTICALL_SIZE), contract)));
    }
    return balances;
  }

  /** Whether Multicall3 is at its address on this network: asked once, again after a failed answer. */
  private async hasMulticall3(): Promise<boolean> {
    this.multicall3 ??= this.request('eth_getCode', [MULTICALL3_ADDRESS, 'latest']).then(
      (code) => typeof code === 'string' && code !== '0x',
    );
    try {
      return await this.multicall3;
    } catch {
      this.multicall3 = undefined;
      return false;
    }
  }

  /** One Multicall3 `aggregate3` call; a call that fails as a whole (a node's gas cap) is read in batches instead. */
  private async multicallBalances(addresses: string[], contract?: string | null): Promise<Array<bigint | undefined>> {
    const calls = addresses.map((address) => ({
      target: (contract ?? MULTICALL3_ADDRESS) as `0x${string}`,
      allowFailure: true,
      callData: callWithAddress(contract ? BALANCE_OF : GET_ETH_BALANCE, address),
    }));
    let data: unknown;
    try {
      data = await this.request('eth_call', [
        {
          to: MULTICALL3_ADDRESS,
          data: encodeFunctionData({ abi: multicall3Abi, functionName: 'aggregate3', args: [calls] }),
        },
        'latest',
      ]);
    } catch (error) {
      if (!(error instanceof ChainCallError)) throw error;
      return this.batchBalances(addresses, contract);
    }
    const results = decodeFunctionResult({
      abi: multicall3Abi,
      functionName: 'aggregate3',
      data: data as `0x${string}`,
    });
    return results.map((r) => (r.success ? asBalance(r.returnData) : undefined));
  }

  /** The balances by one JSON-RPC call each, sent in batches. */
  private async batchBalances(addresses: string[], contract?: string | null): Promise<Array<bigint | undefined>> {
    const calls = addresses.map((address) =>
      contract
        ? { method: 'eth_call', params: [{ to: contract, data: callWithAddress(BALANCE_OF, address) }, 'latest'] }
        : { method: 'eth_getBalance', params: [address, 'latest'] },
    );
    return (await this.batch(calls)).map(asBalance);
  }
}

/** The engine's chains, made once per network on first use. */
export class ForwardingChains {
  private readonly chains = new Map<Network, ForwardingChain>();

  constructor(
    private readonly rpc: ChainRpc,
    private readonly confirmations: Partial<Record<Network, number>> = {},
  ) {}

  /** An EVM network with an upstream (RPC_UPSTREAMS, or a local node outside production). */
  available(network: Network): boolean {
    const info = FORWARDING_NETWORKS[network];
    return info.kind === 'evm' && this.rpc.isAvailable(info.rpcPath);
  }

  get(network: Network): ForwardingChain {
    let chain = this.chains.get(network);
    if (!chain) {
      chain = new ForwardingChain(network, this.rpc, this.confirmations);
      this.chains.set(network, chain);
    }
    return chain;
  }
}
