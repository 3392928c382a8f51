import { RpcErrorCodes, RpcMessages } from '@ebs/contract';
import { JsonRpcProvider, Wallet } from 'ethers';
import { createPublicClient, createWalletClient, defineChain, http, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { DEV_PRIVATE_KEY } from '../../testing/anvil.ts';
import { pglite } from '../../testing/databases.ts';
import { accountWithKey, rpcCall } from '../../testing/keys.ts';
import { reportFigures } from '../../testing/report.ts';
import { serverFor, startServer } from '../../testing/server.ts';
import { randomAddress } from '../forwarding/forwarding.test-kit.ts';
import { MethodPolicy } from './method-policy.ts';

const SEPOLIA = { path: 'ethereum/sepolia', chainId: 11155111 } as const;
/** Anvil's first development account, whose key everyone knows. */
const DEV = privateKeyToAccount(DEV_PRIVATE_KEY).address;
const call = (method: string, params: unknown[] = [], id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
});

/** Node administration and node signing, each with what it would do to a shared chain. */
const attacks = (victim: string, funded: string): Array<[string, unknown[]]> => [
  ['anvil_setBalance', [victim, '0x3635c9adc5dea00000']],
  ['hardhat_setBalance', [victim, '0x3635c9adc5dea00000']],
  ['anvil_setCode', [victim, '0x60006000f3']],
  ['anvil_impersonateAccount', [DEV]],
  ['anvil_mine', ['0x5']],
  ['evm_mine', []],
  ['evm_snapshot', []],
  ['evm_revert', ['0x0']],
  ['evm_increaseTime', ['0x3c']],
  ['evm_setAutomine', [false]],
  ['anvil_reset', []],
  ['debug_setHead', ['0x0']],
  ['eth_sendTransaction', [{ from: DEV, to: victim, value: '0xde0b6b3a7640000' }]],
  // Anvil sends from any address without a signature: another customer's coins.
  ['eth_sendUnsignedTransaction', [{ from: funded, to: victim, value: '0xde0b6b3a7640000' }]],
  ['eth_sendTransactionSync', [{ from: DEV, to: victim, value: '0xde0b6b3a7640000' }]],
  ['debug_setGCPercent', [1]],
  ['debug_writeMemProfile', ['/tmp/gateway-profile']],
  ['debug_startCPUProfile', ['/tmp/gateway-profile']],
  ['debug_chaindbCompact', []],
  ['debug_resetHead', ['0x0']],
  ['parity_setAuthor', [DEV]],
  ['signer_requestsToConfirm', []],
  ['eth_sign', [DEV, '0xdeadbeef']],
  ['eth_signTransaction', [{ from: DEV, to: victim, value: '0x1' }]],
  ['eth_signTypedData_v4', [DEV, '{}']],
  ['personal_sign', ['0xdeadbeef', DEV]],
  ['admin_nodeInfo', []],
  ['miner_start', []],
  ['clique_getSigners', []],
  ['engine_exchangeCapabilities', [[]]],
  ['ganache_snapshot', []],
];

describe('the gateway’s method policy on the embedded default (a shared local node per network)', () => {
  const server = serverFor(pglite, { USAGE_FLUSH_SECONDS: '60' });

  /** The chain as the node itself says it, read straight from the node, not through the gateway. */
  async function chainState(victim: string, funded: string) {
    const url = await server().deps.rpc.localNodeUrl(SEPOLIA.path);
    const node = createPublicClient({ transport: http(url) });
    const address = victim as `0x${string}`;
    return {
      block: await node.getBlockNumber({ cacheTime: 0 }),
      victimBalance: await node.getBalance({ address }),
      victimCode: (await node.getCode({ address })) ?? '0x',
      devNonce: await node.getTransactionCount({ address: DEV }),
      devBalance: await node.getBalance({ address: DEV }),
      fundedBalance: await node.getBalance({ address: funded as `0x${string}` }),
      fundedNonce: await node.getTransactionCount({ address: funded as `0x${string}` }),
    };
  }

  it('no node-administration or node-signing method called with an ordinary key changes the chain', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const url = holder.url(SEPOLIA.path);
    const victim = randomAddress();
    // Coins of someone else on the same node (the faucet's, as another key's holder would have them).
    const funded = randomAddress();
    await server().deps.rpc.fundLocal(SEPOLIA.path, funded, '2');
    expect((await rpcCall(url, call('eth_blockNumber'))).status).toBe(200);
    const before = await chainState(victim, funded);
    expect(before.fundedBalance).toBe(parseEther('2'));
    const meteredBefore = server().deps.rpc.meter.unflushed;
    let refused = 0;
    for (const [method, params] of attacks(victim, funded)) {
      const answer = await rpcCall(url, call(method, params, method));
      expect({ method, status: answer.status, body: answer.body }).toEqual({
        method,
        status: 200,
        body: {
          jsonrpc: '2.0',
          id: method,
          error: { code: RpcErrorCodes.methodNotAvailable, message: RpcMessages.methodNotAvailable(method) },
        },
      });
      expect({ method, chain: await chainState(victim, funded) }).toEqual({ method, chain: before });
      refused += 1;
    }
    // The node holds no account for anyone: eth_accounts is answered empty by the gateway.
    expect((await rpcCall(url, call('eth_accounts'))).body).toEqual({ jsonrpc: '2.0', id: 1, result: [] });
    expect(RpcMessages.methodNotAvailable('anvil_setBalance')).toBe(
      'The method anvil_setBalance is not available on this endpoint.',
    );
    expect(server().deps.rpc.meter.unflushed).toBe(meteredBefore);
    reportFigures('gateway refuses node-administration and node-signing methods', {
      methodsTried: refused + 1,
      chainChanges: 0,
      otherHoldersWeiMoved: String(before.fundedBalance - (await chainState(victim, funded)).fundedBalance),
      metered: server().deps.rpc.meter.unflushed - meteredBefore,
    });
  });

  it('a batch mixing refused and ordinary calls forwards and meters only the ordinary ones', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const victim = randomAddress();
    const meteredBefore = server().deps.rpc.meter.unflushed;
    const answer = await rpcCall(holder.url(SEPOLIA.path), [
      call('eth_chainId', [], 1),
      call('anvil_setBalance', [victim, '0xffff'], 2),
      call('eth_accounts', [], 3),
      call('eth_getBalance', [victim, 'latest'], 4),
    ]);
    expect(answer.status).toBe(200);
    const byId = new Map(answer.body.map((a) => [a.id, a]));
    expect([...byId.keys()].sort()).toEqual([1, 2, 3, 4]);
    expect(byId.get(1)?.result).toBe(`0x${SEPOLIA.chainId.toString(16)}`);
    expect(byId.get(2)?.error?.code).toBe(RpcErrorCodes.methodNotAvailable);
    expect(byId.get(3)?.result).toEqual([]);
    expect(byId.get(4)?.result).toBe('0x0');
    expect(server().deps.rpc.meter.unflushed - meteredBefore).toBe(2);
  });

  it('coins from the operator’s faucet move by eth_sendRawTransaction with viem and with ethers, unmodified', {
    timeout: 60_000,
  }, async () => {
    const holder = await accountWithKey(server().url, server().db);
    const url = holder.url(SEPOLIA.path);
    const chain = defineChain({
      id: SEPOLIA.chainId,
      name: 'Sepolia (local)',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [url] } },
    });
    const viemKey = generatePrivateKey();
    const ethersKey = generatePrivateKey();
    const viemAccount = privateKeyToAccount(viemKey);
    const ethersAccount = privateKeyToAccount(ethersKey);
    const funded = await server().deps.rpc.fundLocal(SEPOLIA.path, viemAccount.address, '2');
    expect(funded).toMatchObject({ network: SEPOLIA.path, amount: '2', balance: '2' });
    await server().deps.rpc.fundLocal(SEPOLIA.path, ethersAccount.address, '1.5');

    const gateway = createPublicClient({ chain, transport: http(url) });
    const wallet = createWalletClient({ account: viemAccount, chain, transport: http(url) });
    const recipient = randomAddress() as `0x${string}`;
    const viemHash = await wallet.sendTransaction({ to: recipient, value: parseEther('0.25') });
    expect((await gateway.waitForTransactionReceipt({ hash: viemHash, pollingInterval: 100 })).status).toBe('success');

    const provider = new JsonRpcProvider(url, SEPOLIA.chainId, {
      staticNetwork: true,
      polling: true,
      pollingInterval: 100,
    });
    try {
      const signer = new Wallet(ethersKey, provider);
      const sent = await signer.sendTransaction({ to: recipient, value: parseEther('0.5') });
      expect((await sent.wait())?.status).toBe(1);
    } finally {
      provider.destroy();
    }
    expect(await gateway.getBalance({ address: recipient })).toBe(parseEther('0.75'));

    // Anvil's well-known development key holds nothing on the shared node: no free coins for anyone.
    const dev = createWalletClient({ account: privateKeyToAccount(DEV_PRIVATE_KEY), chain, transport: http(url) });
    await expect(dev.sendTransaction({ to: recipient, value: 1n })).rejects.toThrow(/insufficient funds|funds/i);
    expect(await gateway.getBalance({ address: DEV })).toBe(0n);
    reportFigures('faucet coins move by raw transaction through the gateway', {
      clients: 2,
      sentWei: String(parseEther('0.75')),
      devAccountBalance: 0,
    });
  });

  it('the faucet refuses a network served by real nodes and bad input with a clear error', async () => {
    const opened = await pglite.open();
    const real = await startServer(opened.db, {
      RPC_UPSTREAMS: JSON.stringify({ 'bsc/testnet': ['http://127.0.0.1:9'] }),
    });
    try {
      const address = randomAddress();
      await expect(real.deps.rpc.fundLocal('bsc/testnet', address, '1')).rejects.toThrow(
        /bsc\/testnet is served by real nodes/,
      );
      await expect(real.deps.rpc.fundLocal('ethereum/goerli', address, '1')).rejects.toThrow(/--network must be/);
      await expect(real.deps.rpc.fundLocal('bsc/mainnet', 'not-an-address', '1')).rejects.toThrow(/--address/);
      await expect(real.deps.rpc.fundLocal('bsc/mainnet', address, '-1')).rejects.toThrow(/--amount/);
    } finally {
      await real.close();
      await opened.close();
    }
  });
});

describe('the method policy’s configuration', () => {
  it('the node-changing and file-writing debug_, parity_ and signer_ methods are refused while tracing stays open', () => {
    const standard = new MethodPolicy();
    const refused = [
      'debug_setHead',
      'debug_resetHead',
      'debug_setGCPercent',
      'debug_setBlockProfileRate',
      'debug_setMutexProfileFraction',
      'debug_setTrieFlushInterval',
      'debug_writeBlockProfile',
      'debug_writeMemProfile',
      'debug_startCPUProfile',
      'debug_startGoTrace',
      'debug_cpuProfile',
      'debug_verbosity',
      'debug_vmodule',
      'debug_freeOSMemory',
      'debug_chaindbCompact',
      'debug_dbAncient',
      'debug_insertReceipts',
      'debug_migrateReceipts',
      'debug_standardTraceBlockToFile',
      'debug_standardTraceBadBlockToFile',
      'parity_setAuthor',
      'parity_killTransaction',
      'signer_confirmRequest',
      'eth_sendUnsignedTransaction',
      'eth_sendTransactionSync',
    ];
    const open = [
      'debug_traceTransaction',
      'debug_traceCall',
      'debug_traceBlockByNumber',
      'debug_getRawBlock',
      'debug_getRawTransaction',
      'debug_storageRangeAt',
      'debug_accountRange',
      'debug_getBadBlocks',
      'debug_getModifiedAccountsByNumber',
      'eth_sendRawTransaction',
    ];
    const verdicts = (methods: string[]) => methods.map((m) => [m, standard.verdict(m)]);
    expect(verdicts(refused)).toEqual(refused.map((m) => [m, 'refuse']));
    expect(verdicts(open)).toEqual(open.map((m) => [m, 'forward']));
    // An operator who needs one back names it.
    expect(new MethodPolicy([], ['debug_standardTraceBlockToFile']).verdict('debug_standardTraceBlockToFile')).toBe(
      'forward',
    );
    reportFigures('gateway refuses debug_, parity_ and signer_ methods that change the node', {
      refused: refused.length,
      tracingOpen: open.length,
    });
  });

  it('refuses the default namespaces, re-opens what RPC_ALLOWED_METHODS names, and can serve only a list', () => {
    const standard = new MethodPolicy();
    expect(
      [
        'anvil_setBalance',
        'evm_revert',
        'eth_sendTransaction',
        'eth_accounts',
        'eth_sendRawTransaction',
        'eth_call',
      ].map((m) => standard.verdict(m)),
    ).toEqual(['refuse', 'refuse', 'refuse', 'no-accounts', 'forward', 'forward']);
    const reopened = new MethodPolicy(['debug_*'], ['evm_snapshot', 'debug_traceTransaction']);
    expect(
      ['evm_snapshot', 'evm_revert', 'debug_traceCall', 'debug_traceTransaction'].map((m) => reopened.verdict(m)),
    ).toEqual(['forward', 'refuse', 'refuse', 'forward']);
    const only = new MethodPolicy(['*'], ['eth_*', 'net_version']);
    expect(
      ['eth_chainId', 'net_version', 'web3_clientVersion', 'eth_sendTransaction'].map((m) => only.verdict(m)),
    ).toEqual(['forward', 'forward', 'refuse', 'forward']);
  });
});
