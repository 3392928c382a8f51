import { decodeFunctionResult, erc20Abi, type Hex, toFunctionSelector } from 'viem';

/** What a description of a transfer needs of its token contract; null where the contract does not say. */
export interface TokenInfo {
  symbol: string | null;
  decimals: number | null;
}

/** Batched JSON-RPC reads: each answer is its result, or an Error. */
export type BatchReader = (calls: Array<{ method: string; params: unknown[] }>) => Promise<unknown[]>;

const SYMBOL = toFunctionSelector('symbol()');
const DECIMALS = toFunctionSelector('decimals()');
/** Contracts remembered per network: enough for every token seen in a busy day, bounded. */
const MAX_REMEMBERED = 10_000;

const decode = (functionName: 'symbol' | 'decimals', data: unknown): unknown => {
  if (typeof data !== 'string' || data === '0x') return null;
  try {
    return functionName === 'symbol'
      ? decodeFunctionResult({ abi: erc20Abi, functionName: 'symbol', data: data as Hex })
      : decodeFunctionResult({ abi: erc20Abi, functionName: 'decimals', data: data as Hex });
  } catch {
    return null;
  }
};

/**
 * The symbol and decimals of token contracts, read once per contract (two `eth_call`s in one
 * batch, only for contracts whose transfers matched a watched address) and remembered.
 */
export class TokenInfos {
  private readonly known = new Map<string, TokenInfo>();

  constructor(private readonly read: BatchReader) {}

  async of(contracts: Iterable<string>): Promise<Map<string, TokenInfo>> {
    const wanted = [...new Set(contracts)];
    const missing = wanted.filter((c) => !this.known.has(c));
    if (missing.length) {
      const answers = await this.read(
        missing.flatMap((to) => [
          { method: 'eth_call', params: [{ to, data: SYMBOL }, 'latest'] },
          { method: 'eth_call', params: [{ to, data: DECIMALS }, 'latest'] },
        ]),
      );
      if (this.known.size + missing.length > MAX_REMEMBERED) this.known.clear();
      for (const [i, contract] of missing.entries()) {
        const symbol = decode('symbol', answers[2 * i]);
        const decimals = decode('decimals', answers[2 * i + 1]);
        this.known.set(contract, {
          symbol: typeof symbol === 'string' && symbol.length <= 32 ? symbol : null,
          decimals: typeof decimals === 'number' && decimals <= 36 ? decimals : null,
        });
      }
    }
    return new Map(wanted.map((c) => [c, this.known.get(c) ?? { symbol: null, decimals: null }]));
  }
}
