// The chain the notify suite's node serves: an empty head block, then blocks of 1 000 transfers each
// (500 native transactions with value, 500 ERC-20 `transfer` calls of one token, each with its
// Transfer log), of which 100 (50 + 50) touch a watched address. Every block's answers are written
// as JSON once, before the run, so that serving a block costs the node only the write.
import { createHash } from 'node:crypto';
import { encodeFunctionResult, erc20Abi, toFunctionSelector } from 'viem';

const hex = (n: number | bigint) => `0x${n.toString(16)}`;
const word = (value: string | bigint) =>
  (typeof value === 'string' ? value.slice(2) : value.toString(16)).padStart(64, '0');
const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** A deterministic address of a kind: the same run after run, the kinds never alike. */
export function address(kind: string, index: number): string {
  return `0x${digest(`${kind}:${index}`).slice(0, 40)}`;
}

export const SEPOLIA_CHAIN_ID = 11155111;
/** keccak256("Transfer(address,address,uint256)"), written out rather than taken from the server's code. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
export const TOKEN = { address: address('token', 0), symbol: 'BTK', name: 'Bench Token', decimals: 6 };
/** The watched addresses are dealt into this many equal groups: one per webhook of the many-webhooks shape. */
export const GROUPS = 10;

const TRANSFERS = 1000;
/** One transfer in this many of each kind touches a watched address: 50 native and 50 ERC-20 in 1 000. */
const MATCH_EVERY = 10;
export const MATCHES_PER_BLOCK = TRANSFERS / MATCH_EVERY;

/** One of a block's transfers that touches a watched address: what its delivery must tell. */
export interface Match {
  category: 'NATIVE' | 'ERC20';
  /** Index of the watched address in the watched list. */
  watched: number;
  from: string;
  to: string;
  amount: bigint;
  txHash: string;
}

interface Tx {
  hash: string;
  from: string;
  to: string;
  index: number;
  log: Record<string, unknown> | null;
}

/** A block as the node serves it: its answers prepared as JSON text. */
export interface ServedBlock {
  number: number;
  hash: string;
  /** `eth_getBlockByNumber(n, true)`. */
  full: string;
  /** `eth_getBlockByNumber(n, false)`. */
  hashes: string;
  /** `eth_getLogs` of the block: its Transfer logs. */
  logs: string;
  matches: Match[];
}

const TRANSFER_INPUT = toFunctionSelector('transfer(address,uint256)');
const SYMBOL = toFunctionSelector('symbol()');
const DECIMALS = toFunctionSelector('decimals()');
const NAME = toFunctionSelector('name()');

/**
 * The watched index of the `match`-th match of block `block`: group `match % GROUPS`, so each of
 * the many-webhooks shape's webhooks gets a tenth; spread over the group (7919 is prime to any
 * group of 2^a·5^b addresses), never twice in one block.
 */
function watchedIndex(block: number, match: number, perGroup: number): number {
  const group = match % GROUPS;
  const within = ((block * MATCH_EVERY + Math.floor(match / GROUPS)) * 7919) % perGroup;
  return group * perGroup + within;
}

export class Chain {
  /** The head before the schedule starts (an empty block), then the scheduled blocks in order. */
  readonly blocks: ServedBlock[] = [];
  private readonly byHash = new Map<string, ServedBlock>();
  private readonly txs = new Map<string, Tx & { block: ServedBlock }>();

  /**
   * `base`: the number of the empty head block; `count` blocks follow it. `watched`: the watched
   * addresses, a multiple of GROUPS, each group at least MATCH_EVERY addresses.
   */
  constructor(
    readonly base: number,
    count: number,
    readonly watched: readonly string[],
  ) {
    const perGroup = watched.length / GROUPS;
    if (!Number.isInteger(perGroup) || perGroup < MATCH_EVERY) {
      throw new Error(`the watched addresses must be a multiple of ${GROUPS}, at least ${GROUPS * MATCH_EVERY}`);
    }
    const seconds = Math.floor(Date.now() / 1000);
    let parentHash = `0x${digest('parent of the base')}`;
    let fresh = 0;
    const other = () => address('unwatched', fresh++);
    for (let i = 0; i <= count; i++) {
      const number = base + i;
      const hash = `0x${digest(`block ${number}`)}`;
      const txs: Array<Tx & { body: Record<string, unknown> }> = [];
      const matches: Match[] = [];
      for (let t = 0; i > 0 && t < TRANSFERS; t++) {
        const native = t % 2 === 0;
        const slot = Math.floor(t / 2);
        const matching = slot % MATCH_EVERY === 0;
        const match = matching ? (native ? 0 : MATCHES_PER_BLOCK / 2) + slot / MATCH_EVERY : -1;
        const watchedAt = matching ? watchedIndex(i, match, perGroup) : -1;
        const mine = watched[watchedAt] ?? '';
        // Half the matches are deposits to a watched address, half are withdrawals from one.
        const [from, to] = !matching ? [other(), other()] : match % 2 === 0 ? [other(), mine] : [mine, other()];
        const amount = native ? BigInt(t + 1) * 10n ** 15n : BigInt(t + 1) * 1_000_000n + BigInt(i);
        const txHash = `0x${digest(`tx ${number} ${t}`)}`;
        const common = {
          blockHash: hash,
          blockNumber: hex(number),
          from,
          hash: txHash,
          nonce: hex(t),
          transactionIndex: hex(t),
          type: '0x2',
          chainId: hex(SEPOLIA_CHAIN_ID),
          maxFeePerGas: '0x77359400',
          maxPriorityFeePerGas: '0x3b9aca00',
          gasPrice: '0x4a817c80',
          accessList: [],
          v: '0x1',
          yParity: '0x1',
          r: `0x${digest(`r ${txHash}`)}`,
          s: `0x${digest(`s ${txHash}`)}`,
        };
        const body = native
          ? { ...common, to, value: hex(amount), gas: '0x5208', input: '0x' }
          : {
              ...common,
              to: TOKEN.address,
              value: '0x0',
              gas: '0xfde8',
              input: `${TRANSFER_INPUT}${word(to)}${word(amount)}`,
            };
        const log = native
          ? null
          : {
              address: TOKEN.address,
              topics: [TRANSFER_TOPIC, `0x${word(from)}`, `0x${word(to)}`],
              data: `0x${word(amount)}`,
              blockNumber: hex(number),
              blockHash: hash,
              transactionHash: txHash,
              transactionIndex: hex(t),
              logIndex: hex(slot),
              removed: false,
            };
        txs.push({ hash: txHash, from, to: native ? to : TOKEN.address, index: t, log, body });
        if (matching)
          matches.push({ category: native ? 'NATIVE' : 'ERC20', watched: watchedAt, from, to, amount, txHash });
      }
      const header = {
        number: hex(number),
        hash,
        parentHash,
        timestamp: hex(seconds + i),
        miner: address('miner', 0),
        gasLimit: '0x2255100',
        gasUsed: hex(txs.length * 40_000),
        baseFeePerGas: '0x3b9aca00',
        difficulty: '0x0',
        totalDifficulty: '0x3c656d23029ab0',
        extraData: '0x',
        logsBloom: `0x${'0'.repeat(512)}`,
        mixHash: `0x${digest(`mix ${number}`)}`,
        nonce: '0x0000000000000000',
        receiptsRoot: `0x${digest(`receipts ${number}`)}`,
        sha3Uncles: `0x${digest(`uncles ${number}`)}`,
        stateRoot: `0x${digest(`state ${number}`)}`,
        transactionsRoot: `0x${digest(`txs ${number}`)}`,
        withdrawalsRoot: `0x${digest(`withdrawals ${number}`)}`,
        size: hex(600 * txs.length + 600),
        uncles: [],
        withdrawals: [],
      };
      const block: ServedBlock = {
        number,
        hash,
        full: JSON.stringify({ ...header, transactions: txs.map((tx) => tx.body) }),
        hashes: JSON.stringify({ ...header, transactions: txs.map((tx) => tx.hash) }),
        logs: JSON.stringify(txs.flatMap((tx) => (tx.log ? [tx.log] : []))),
        matches,
      };
      this.blocks.push(block);
      this.byHash.set(hash, block);
      for (const { body: _, ...tx } of txs) this.txs.set(tx.hash, { ...tx, block });
      parentHash = hash;
    }
  }

  /** The block of a number, when the chain has it up to `head`. */
  block(number: number, head: number): ServedBlock | undefined {
    return number <= head ? this.blocks[number - this.base] : undefined;
  }

  blockByHash(hash: string, head: number): ServedBlock | undefined {
    const block = this.byHash.get(hash.toLowerCase());
    return block && block.number <= head ? block : undefined;
  }

  /** `eth_getTransactionReceipt` as JSON text (every transaction succeeded), or null. */
  receipt(hash: string, head: number): string {
    const tx = this.txs.get(String(hash).toLowerCase());
    if (!tx || tx.block.number > head) return 'null';
    return JSON.stringify({
      transactionHash: tx.hash,
      transactionIndex: hex(tx.index),
      blockHash: tx.block.hash,
      blockNumber: hex(tx.block.number),
      from: tx.from,
      to: tx.to,
      cumulativeGasUsed: hex((tx.index + 1) * 40_000),
      gasUsed: tx.log ? '0xc350' : '0x5208',
      effectiveGasPrice: '0x4a817c80',
      contractAddress: null,
      logs: tx.log ? [tx.log] : [],
      logsBloom: `0x${'0'.repeat(512)}`,
      status: '0x1',
      type: '0x2',
    });
  }
}

/** `eth_call` of the token's symbol(), decimals() and name(), ABI-encoded; undefined for any other call. */
export function tokenCall(to: unknown, data: unknown): string | undefined {
  if (String(to).toLowerCase() !== TOKEN.address || typeof data !== 'string') return undefined;
  const selector = data.slice(0, 10);
  if (selector === SYMBOL) return encodeFunctionResult({ abi: erc20Abi, functionName: 'symbol', result: TOKEN.symbol });
  if (selector === NAME) return encodeFunctionResult({ abi: erc20Abi, functionName: 'name', result: TOKEN.name });
  if (selector === DECIMALS) {
    return encodeFunctionResult({ abi: erc20Abi, functionName: 'decimals', result: TOKEN.decimals });
  }
  return undefined;
}
