import { FORWARDING_NETWORKS, findRpcNetwork, type Network } from '@ebs/contract';
import { createPublicClient, custom, encodeFunctionData, erc20Abi, type PublicClient } from 'viem';

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

/** Reads are sent as JSON-RPC batches of this many calls. */
const BATCH = 100;

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

  /** The balance of each address in wei (native) or token base units (ERC-20); undefined when unreadable. */
  async balances(addresses: string[], contract?: string | null): Promise<Array<bigint | undefined>> {
    const calls = addresses.map((address) =>
      contract
        ? {
            method: 'eth_call',
            params: [
              {
                to: contract,
                data: encodeFunctionData({
                  abi: erc20Abi,
                  functionName: 'balanceOf',
                  args: [address as `0x${string}`],
                }),
              },
              'latest',
            ],
          }
        : { method: 'eth_getBalance', params: [address, 'latest'] },
    );
    const answers = await this.batch(calls);
    return answers.map((a) =>
      typeof a === 'string' && /^0x[0-9a-f]*$/i.test(a) ? BigInt(a === '0x' ? 0 : a) : undefined,
    );
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
