import { type KeyRuleList, MULTICALL3_ADDRESS, parseKeyRuleList } from '@ebs/contract';
import { encodeFunctionData, erc20Abi, type Hex, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { KeyPolicy } from './key-policy.ts';

export type Lists = Record<KeyRuleList, string[]>;
export const NONE: Lists = { allowedOrigins: [], allowedIps: [], allowedMethods: [], allowedContracts: [] };

/** A policy of lists written as a customer would, stored as the settings call stores them. */
export function policy(lists: Partial<Lists>): KeyPolicy {
  const stored: Lists = { ...NONE, ...lists };
  for (const list of Object.keys(stored) as KeyRuleList[]) {
    const parsed = parseKeyRuleList(list, stored[list]);
    if (!parsed.ok) throw new Error(parsed.message);
    stored[list] = parsed.values;
  }
  const compiled = KeyPolicy.of(stored);
  if (!compiled) throw new Error('no policy');
  return compiled;
}

export const TOKEN = '0x1111111111111111111111111111111111111111';
export const OTHER = '0x2222222222222222222222222222222222222222';
export const MULTICALL3 = MULTICALL3_ADDRESS;

/** Multicall3's functions as deployed (github.com/mds1/multicall), to build the calldata a dapp sends. */
export const multicall3Abi = parseAbi([
  'struct Call { address target; bytes callData; }',
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Call3Value { address target; bool allowFailure; uint256 value; bytes callData; }',
  'function aggregate(Call[] calls) payable',
  'function tryAggregate(bool requireSuccess, Call[] calls) payable',
  'function blockAndAggregate(Call[] calls) payable',
  'function tryBlockAndAggregate(bool requireSuccess, Call[] calls) payable',
  'function aggregate3(Call3[] calls) payable',
  'function aggregate3Value(Call3Value[] calls) payable',
  'function getBlockNumber() view',
  'function getEthBalance(address addr) view',
  'function getBlockHash(uint256 blockNumber) view',
]);
export const balanceOf = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [OTHER] });

/** Multicall3 calldata calling each target (with `callData` when given), through each function that calls out. */
export function multicalls(targets: Hex[], callData: Hex = balanceOf): Array<[string, Hex]> {
  const calls = targets.map((target) => ({ target, callData }));
  const calls3 = targets.map((target) => ({ target, allowFailure: true, callData }));
  return [
    ['aggregate', encodeFunctionData({ abi: multicall3Abi, functionName: 'aggregate', args: [calls] })],
    ['tryAggregate', encodeFunctionData({ abi: multicall3Abi, functionName: 'tryAggregate', args: [false, calls] })],
    ['blockAndAggregate', encodeFunctionData({ abi: multicall3Abi, functionName: 'blockAndAggregate', args: [calls] })],
    [
      'tryBlockAndAggregate',
      encodeFunctionData({ abi: multicall3Abi, functionName: 'tryBlockAndAggregate', args: [true, calls] }),
    ],
    ['aggregate3', encodeFunctionData({ abi: multicall3Abi, functionName: 'aggregate3', args: [calls3] })],
    [
      'aggregate3Value',
      encodeFunctionData({
        abi: multicall3Abi,
        functionName: 'aggregate3Value',
        args: [calls3.map((call) => ({ ...call, value: 1n }))],
      }),
    ],
  ];
}
export const aggregate3 = (targets: Hex[], callData: Hex = balanceOf) =>
  encodeFunctionData({
    abi: multicall3Abi,
    functionName: 'aggregate3',
    args: [targets.map((target) => ({ target, allowFailure: false, callData }))],
  });

/** The methods that take a transaction object, each with the parameters a dapp sends. */
export const CALL_METHODS: Array<[string, (tx: Record<string, unknown>) => unknown[]]> = [
  ['eth_call', (tx) => [tx, 'latest']],
  ['eth_estimateGas', (tx) => [tx]],
  ['eth_createAccessList', (tx) => [tx, 'latest']],
  ['eth_fillTransaction', (tx) => [tx]],
];

/** Anvil's first development account: a key everyone knows, fit only for tests. */
export const signer = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
export const signed = (fields: { to?: Hex; data?: Hex }) =>
  signer.signTransaction({
    chainId: 137,
    nonce: 0,
    gas: 100_000n,
    maxFeePerGas: 1_000_000_000n,
    maxPriorityFeePerGas: 1n,
    value: 0n,
    ...fields,
  });
