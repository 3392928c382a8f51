import { MULTICALL3_ADDRESS } from '@ebs/contract';
import { parseEther, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_PRIVATE_KEY, startAnvil } from '../../testing/anvil.ts';
import { deployTestToken } from '../../testing/contracts/test-token.ts';
import { type ChainRpc, ForwardingChain } from './chain.ts';
import { localSender, randomAddress } from './forwarding.test-kit.ts';

const SEPOLIA = 11155111;
const anvil = await startAnvil(SEPOLIA);
afterAll(() => anvil.stop());

/** The node reached directly, counting the HTTP requests and the JSON-RPC calls in them. */
function countingRpc() {
  const counts = { requests: 0, calls: 0, methods: new Set<string>() };
  const rpc: ChainRpc = {
    async call(_path, payload) {
      counts.requests += 1;
      for (const call of [payload].flat() as Array<{ method: string }>) {
        counts.calls += 1;
        counts.methods.add(call.method);
      }
      const answer = await fetch(anvil.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      return answer.json();
    },
    usesLocalNode: () => true,
    isAvailable: () => true,
  };
  return { rpc, counts };
}

const anvilCall = (method: string, params: unknown[]) =>
  fetch(anvil.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });

describe('reading wallet balances on a local node', () => {
  const sender = localSender(anvil.url, SEPOLIA, DEV_PRIVATE_KEY);
  let token: `0x${string}`;
  const funded = randomAddress();
  // More than one Multicall3 call holds, and more than one JSON-RPC batch.
  const addresses = [funded, ...Array.from({ length: 600 }, randomAddress)];
  beforeAll(async () => {
    token = await deployTestToken(anvil.url, DEV_PRIVATE_KEY, {
      name: 'Test Token',
      symbol: 'TST',
      decimals: 18,
      supply: parseUnits('1000', 18),
    });
    await sender.sendEth(funded, '0.25');
    await sender.sendToken(token, funded, parseUnits('12.5', 18));
  });

  /** Native and token balances of every address, then of an address without code as the "token", then of a contract that reverts. */
  const readAll = (chain: ForwardingChain) =>
    Promise.all([
      chain.balances(addresses),
      chain.balances(addresses, token),
      chain.balances([funded], funded),
      chain.balances([funded], MULTICALL3_ADDRESS),
    ]);

  const expected = [
    [parseEther('0.25'), ...addresses.slice(1).map(() => 0n)],
    [parseUnits('12.5', 18), ...addresses.slice(1).map(() => 0n)],
    [0n],
    [undefined],
  ];

  it('reads thousands of balances in a few calls through Multicall3, as local nodes have it like real networks', async () => {
    const { rpc, counts } = countingRpc();
    expect(await readAll(new ForwardingChain('ETHEREUM_SEPOLIA', rpc))).toEqual(expected);
    // The code check once, then two aggregate3 calls for each list of 601 and one for each single read.
    expect(counts).toEqual({ requests: 7, calls: 7, methods: new Set(['eth_getCode', 'eth_call']) });
  });

  it('reads the same in JSON-RPC batches where a call through Multicall3 fails as a whole', async () => {
    // A block gas limit too low for 500 reads in one call: the node refuses the call, not a read in it.
    await anvilCall('evm_setBlockGasLimit', ['0x100000']);
    try {
      const { rpc, counts } = countingRpc();
      expect(await readAll(new ForwardingChain('ETHEREUM_SEPOLIA', rpc))).toEqual(expected);
      expect(counts.methods).toEqual(new Set(['eth_getCode', 'eth_call', 'eth_getBalance']));
    } finally {
      await anvilCall('evm_setBlockGasLimit', ['0x1c9c380']);
    }
  });

  it('reads the same in JSON-RPC batches on a network without Multicall3', async () => {
    await anvilCall('anvil_setCode', [MULTICALL3_ADDRESS, '0x']);
    const { rpc, counts } = countingRpc();
    const chain = new ForwardingChain('ETHEREUM_SEPOLIA', rpc);
    const [native, tokens, noCode, reverting] = await readAll(chain);
    expect([native, tokens, noCode]).toEqual(expected.slice(0, 3));
    // Without Multicall3 its address holds no code either: the "token" answers 0 like any address without code.
    expect(reverting).toEqual([0n]);
    // 601 balances in batches of 100: seven batches per list, one for each single read, and the code check.
    expect(counts).toEqual({
      requests: 17,
      calls: 1 + 2 * 601 + 2,
      methods: new Set(['eth_getCode', 'eth_getBalance', 'eth_call']),
    });
  });
});
