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
/** Gas for each read: plenty for a token's getter, little for a hostile contract to burn on the node. */
const CALL_GAS = '0x30d40';
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

/** An answer that says the node could not run the call (limited, busy, failing), not what the contract did. */
const isNodeTrouble = (answer: unknown): answer is Error =>
  answer instanceof Error &&
  (/timeout|timed out|rate limit|too many|busy|unavailable|no node/i.test(answer.message) ||
    [-32005, 429].includes((answer as { code?: number }).code ?? 0));

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
          { method: 'eth_call', params: [{ to, data: SYMBOL, gas: CALL_GAS }, 'latest'] },
          { method: 'eth_call', params: [{ to, data: DECIMALS, gas: CALL_GAS }, 'latest'] },
        ]),
      );
      if (this.known.size + missing.length > MAX_REMEMBERED) this.known.clear();
      for (const [i, contract] of missing.entries()) {
        const [symbolAnswer, decimalsAnswer] = [answers[2 * i], answers[2 * i + 1]];
        const symbol = decode('symbol', symbolAnswer);
        const decimals = decode('decimals', decimalsAnswer);
        const info = {
          symbol: typeof symbol === 'string' && symbol.length <= 32 ? symbol : null,
          decimals: typeof decimals === 'number' && decimals <= 36 ? decimals : null,
        };
        // The node's trouble is not the contract's answer (a revert, running out of gas are): the
        // block is read again rather than told in raw units.
        const failed = [symbolAnswer, decimalsAnswer].find(isNodeTrouble);
        if (failed) throw failed;
        this.known.set(contract, info);
      }
    }
    return new Map(wanted.map((c) => [c, this.known.get(c) ?? { symbol: null, decimals: null }]));
  }
}
