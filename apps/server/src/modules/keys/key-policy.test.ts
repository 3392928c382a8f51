import { type KeyRuleList, MULTICALL3_ADDRESS, parseKeyRuleList, RpcMessages } from '@ebs/contract';
import { encodeFunctionData, erc20Abi, type Hex, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { KeyPolicy } from './key-policy.ts';

type Lists = Record<KeyRuleList, string[]>;
const NONE: Lists = { allowedOrigins: [], allowedIps: [], allowedMethods: [], allowedContracts: [] };

/** A policy of lists written as a customer would, stored as the settings call stores them. */
function policy(lists: Partial<Lists>): KeyPolicy {
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

const TOKEN = '0x1111111111111111111111111111111111111111';
const OTHER = '0x2222222222222222222222222222222222222222';
const MULTICALL3 = MULTICALL3_ADDRESS;

/** Multicall3's functions as deployed (github.com/mds1/multicall), to build the calldata a dapp sends. */
const multicall3Abi = parseAbi([
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
const balanceOf = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [OTHER] });

/** Multicall3 calldata calling each target (with `callData` when given), through each function that calls out. */
function multicalls(targets: Hex[], callData: Hex = balanceOf): Array<[string, Hex]> {
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
const aggregate3 = (targets: Hex[], callData: Hex = balanceOf) =>
  encodeFunctionData({
    abi: multicall3Abi,
    functionName: 'aggregate3',
    args: [targets.map((target) => ({ target, allowFailure: false, callData }))],
  });

/** The methods that take a transaction object, each with the parameters a dapp sends. */
const CALL_METHODS: Array<[string, (tx: Record<string, unknown>) => unknown[]]> = [
  ['eth_call', (tx) => [tx, 'latest']],
  ['eth_estimateGas', (tx) => [tx]],
  ['eth_createAccessList', (tx) => [tx, 'latest']],
  ['eth_fillTransaction', (tx) => [tx]],
];

/** Anvil's first development account: a key everyone knows, fit only for tests. */
const signer = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const signed = (fields: { to?: Hex; data?: Hex }) =>
  signer.signTransaction({
    chainId: 137,
    nonce: 0,
    gas: 100_000n,
    maxFeePerGas: 1_000_000_000n,
    maxPriorityFeePerGas: 1n,
    value: 0n,
    ...fields,
  });

describe('a key’s policy', () => {
  it('is absent when every list is empty: an open key costs nothing', () => {
    expect(KeyPolicy.of(NONE)).toBeNull();
  });

  it('allows the exact origins and the subdomains of a wildcard, by Origin or else by Referer', () => {
    const p = policy({ allowedOrigins: ['https://App.Example.com/', 'https://*.dapp.io', 'http://localhost:5173'] });
    const allowed = (origin?: string, referer?: string) => p.originRefusal(origin, referer);
    expect(allowed('https://app.example.com')).toBeNull();
    expect(allowed('https://app.example.com:443')).toBeNull();
    expect(allowed('https://a.dapp.io')).toBeNull();
    expect(allowed('https://deep.a.dapp.io')).toBeNull();
    expect(allowed('http://localhost:5173')).toBeNull();
    expect(allowed(undefined, 'https://app.example.com/swap?x=1')).toBeNull();
    // The apex of a wildcard, another scheme or port, a look-alike suffix: refused, naming the origin.
    for (const origin of [
      'https://dapp.io',
      'http://app.example.com',
      'https://app.example.com:8443',
      'https://evildapp.io',
      'https://app.example.com.evil.io',
    ]) {
      expect(allowed(origin)).toBe(RpcMessages.originNotAllowed(origin));
    }
    expect(allowed('https://evil.example', 'https://app.example.com/')).toBe(
      RpcMessages.originNotAllowed('https://evil.example'),
    );
    expect(allowed(undefined, undefined)).toBe(RpcMessages.originMissing);
    // A browser that says Origin: null (a sandboxed frame, a redirect) is not taken at its Referer's word.
    expect(allowed('null', 'https://app.example.com/')).toBe(RpcMessages.originNotAllowed('null'));
  });

  it('checks an IPv4 client against IPv4 rules only: an IPv6 range such as ::/0 does not let it in', () => {
    const p = policy({ allowedIps: ['::/0'] });
    expect(p.addressRefusal('2001:db8::1')).toBeNull();
    expect(p.addressRefusal('203.0.113.7')).toBe(RpcMessages.ipNotAllowed('203.0.113.7'));
    expect(p.addressRefusal('::ffff:203.0.113.7')).toBe(RpcMessages.ipNotAllowed('203.0.113.7'));
  });

  it('allows the listed addresses and ranges, IPv4 (also as IPv6-mapped) and IPv6', () => {
    const p = policy({ allowedIps: ['203.0.113.7', '198.51.100.0/24', '2001:db8::/32'] });
    for (const ip of ['203.0.113.7', '::ffff:203.0.113.7', '198.51.100.250', '2001:db8:1::5']) {
      expect(p.addressRefusal(ip)).toBeNull();
    }
    for (const ip of ['203.0.113.8', '198.51.101.1', '2001:db9::1', '::1']) {
      expect(p.addressRefusal(ip)).toBe(RpcMessages.ipNotAllowed(ip));
    }
    expect(p.addressRefusal('::ffff:10.0.0.1')).toBe(RpcMessages.ipNotAllowed('10.0.0.1'));
  });

  it('allows the listed methods and namespaces', () => {
    const p = policy({ allowedMethods: ['eth_call', 'net_*'] });
    expect(p.callRefusal({ method: 'eth_call', params: [] })).toBeNull();
    expect(p.callRefusal({ method: 'net_version' })).toBeNull();
    expect(p.callRefusal({ method: 'debug_traceTransaction' })).toBe(
      RpcMessages.methodNotAllowed('debug_traceTransaction'),
    );
    expect(p.callRefusal({ method: 'eth_callMany' })).toBe(RpcMessages.methodNotAllowed('eth_callMany'));
  });

  it('allows the listed contracts wherever each contract method names one, in any case', () => {
    const p = policy({ allowedContracts: [TOKEN.toUpperCase().replace('0X', '0x')] });
    const calls: Array<[string, unknown[]]> = [
      ['eth_call', [{ to: TOKEN, data: '0x' }, 'latest']],
      ['eth_estimateGas', [{ to: TOKEN }]],
      ['eth_createAccessList', [{ to: TOKEN }]],
      ['eth_getLogs', [{ address: TOKEN, fromBlock: '0x1' }]],
      ['eth_getLogs', [{ address: [TOKEN, TOKEN.toUpperCase().replace('0X', '0x')] }]],
      ['eth_newFilter', [{ address: TOKEN }]],
      ['eth_getCode', [TOKEN, 'latest']],
      ['eth_getStorageAt', [TOKEN, '0x0', 'latest']],
      ['eth_getAccountInfo', [TOKEN, 'latest']],
      ['eth_fillTransaction', [{ from: OTHER, to: TOKEN, data: '0x' }]],
    ];
    for (const [method, params] of calls) expect(p.callRefusal({ method, params })).toBeNull();
    // Other methods are not about contracts.
    expect(p.callRefusal({ method: 'eth_getBalance', params: [OTHER, 'latest'] })).toBeNull();
  });

  it('refuses another contract, one of several in a filter, none named, and spellings a Go node reads as the field', () => {
    const p = policy({ allowedContracts: [TOKEN] });
    const refusal = (method: string, params: unknown) => p.callRefusal({ method, params });
    expect(refusal('eth_call', [{ to: OTHER }])).toBe(RpcMessages.contractNotAllowed(OTHER));
    expect(refusal('eth_getLogs', [{ address: [TOKEN, OTHER] }])).toBe(RpcMessages.contractNotAllowed(OTHER));
    expect(refusal('eth_getCode', [OTHER, 'latest'])).toBe(RpcMessages.contractNotAllowed(OTHER));
    expect(refusal('eth_getLogs', [{ fromBlock: '0x1' }])).toBe(RpcMessages.contractMissing('eth_getLogs'));
    expect(refusal('eth_getLogs', [{ address: [] }])).toBe(RpcMessages.contractMissing('eth_getLogs'));
    expect(refusal('eth_call', [{ data: '0x60' }])).toBe(RpcMessages.contractMissing('eth_call'));
    expect(refusal('eth_call', { to: TOKEN })).toBe(RpcMessages.contractMissing('eth_call'));
    // geth matches JSON keys without regard to case (and folds ſ to s): the last one wins there.
    expect(refusal('eth_call', [{ to: TOKEN, TO: OTHER }])).toBe(RpcMessages.contractNotAllowed(OTHER));
    expect(refusal('eth_getLogs', [{ address: TOKEN, addreſs: OTHER }])).toBe(RpcMessages.contractNotAllowed(OTHER));
    expect(refusal('eth_call', [{ to: 42 }])).toBe(RpcMessages.contractNotAllowed('42'));
    expect(refusal('eth_getProof', [OTHER, [], 'latest'])).toBe(RpcMessages.contractNotAllowed(OTHER));
  });

  it('refuses, for a key with contracts, state overrides, the methods that can run or read any contract, and unknown methods', () => {
    const p = policy({ allowedContracts: [TOKEN] });
    const refusal = (method: string, params: unknown) => p.callRefusal({ method, params });
    // An override can put any code at an allowed address: code that reads any other contract.
    const override = { [TOKEN]: { code: '0x6000' } };
    expect(refusal('eth_call', [{ to: TOKEN }, 'latest', override])).toBe(RpcMessages.contractOverrides('eth_call'));
    expect(refusal('eth_estimateGas', [{ to: TOKEN }, 'latest', override])).toBe(
      RpcMessages.contractOverrides('eth_estimateGas'),
    );
    for (const method of [
      'debug_traceCall',
      'debug_traceCallMany',
      'debug_storageRangeAt',
      'eth_simulateV1',
      'eth_callMany',
      'eth_callBundle',
      'trace_call',
      'trace_callMany',
      'trace_rawTransaction',
      'trace_replayTransaction',
      'trace_block',
      'debug_traceTransaction',
      'debug_getRawReceipts',
      'debug_accountRange',
      // Methods the gateway does not know: what they read or run cannot be told.
      'eth_sendRawTransactionSync',
      'eth_unknownMethod',
    ]) {
      expect(refusal(method, [{ to: TOKEN }])).toBe(RpcMessages.contractUncheckable(method));
    }
    // Without contracts, they are the method list's (and the operator's) business.
    expect(policy({ allowedMethods: ['debug_*'] }).callRefusal({ method: 'debug_traceCall', params: [] })).toBeNull();
  });

  it('checks eth_getAccountInfo’s address as eth_getCode’s: it answers the contract’s code', () => {
    const p = policy({ allowedContracts: [TOKEN] });
    expect(p.callRefusal({ method: 'eth_getAccountInfo', params: [TOKEN, 'latest'] })).toBeNull();
    expect(p.callRefusal({ method: 'eth_getAccountInfo', params: [OTHER, 'latest'] })).toBe(
      RpcMessages.contractNotAllowed(OTHER),
    );
    expect(p.callRefusal({ method: 'eth_getAccountInfo', params: [] })).toBe(
      RpcMessages.contractMissing('eth_getAccountInfo'),
    );
  });

  it('checks eth_fillTransaction’s `to` as eth_estimateGas’s, and refuses it with overrides', () => {
    const p = policy({ allowedContracts: [TOKEN] });
    const refusal = (params: unknown[]) => p.callRefusal({ method: 'eth_fillTransaction', params });
    expect(refusal([{ to: TOKEN, data: balanceOf }])).toBeNull();
    expect(refusal([{ to: OTHER, data: balanceOf }])).toBe(RpcMessages.contractNotAllowed(OTHER));
    expect(refusal([{ to: TOKEN, To: OTHER }])).toBe(RpcMessages.contractNotAllowed(OTHER));
    expect(refusal([{ data: '0x6000' }])).toBe(RpcMessages.contractMissing('eth_fillTransaction'));
    // It takes the transaction alone: anything after it is an override a node may read.
    expect(refusal([{ to: TOKEN }, { [TOKEN]: { code: '0x6000' } }])).toBe(
      RpcMessages.contractOverrides('eth_fillTransaction'),
    );
    expect(refusal([{ to: TOKEN }, 'latest'])).toBe(RpcMessages.contractOverrides('eth_fillTransaction'));
  });

  it('lets a Multicall3 call through when every call in it is to an allowed contract', () => {
    const p = policy({ allowedContracts: [TOKEN, MULTICALL3] });
    for (const [method, params] of CALL_METHODS) {
      for (const [name, data] of multicalls([TOKEN, TOKEN])) {
        expect(p.callRefusal({ method, params: params({ to: MULTICALL3, data }) }), `${method} ${name}`).toBeNull();
      }
      // Its functions that read the chain call no contract.
      for (const data of [
        encodeFunctionData({ abi: multicall3Abi, functionName: 'getBlockNumber' }),
        encodeFunctionData({ abi: multicall3Abi, functionName: 'getEthBalance', args: [OTHER] }),
        encodeFunctionData({ abi: multicall3Abi, functionName: 'getBlockHash', args: [1n] }),
      ]) {
        expect(p.callRefusal({ method, params: params({ to: MULTICALL3.toLowerCase(), data }) })).toBeNull();
      }
    }
    // An empty list of calls calls nothing.
    expect(p.callRefusal({ method: 'eth_call', params: [{ to: MULTICALL3, data: aggregate3([]) }] })).toBeNull();
  });

  it('refuses a whole Multicall3 call when one call in it is to a contract not on the list, naming that contract', () => {
    const p = policy({ allowedContracts: [TOKEN, MULTICALL3] });
    for (const [method, params] of CALL_METHODS) {
      for (const [name, data] of multicalls([TOKEN, OTHER])) {
        expect(p.callRefusal({ method, params: params({ to: MULTICALL3, data }) }), `${method} ${name}`).toBe(
          RpcMessages.contractNotAllowed(OTHER),
        );
      }
    }
    // Multicall3 itself off the list: refused as any other contract, its calldata unread.
    expect(
      policy({ allowedContracts: [TOKEN] }).callRefusal({
        method: 'eth_call',
        params: [{ to: MULTICALL3, data: aggregate3([TOKEN]) }],
      }),
    ).toBe(RpcMessages.contractNotAllowed(MULTICALL3));
  });

  it('reads Multicall3 calls nested in Multicall3 calls, three levels deep and no deeper', () => {
    const p = policy({ allowedContracts: [TOKEN, MULTICALL3] });
    const nested = (levels: number, target: Hex) => {
      let data = aggregate3([target]);
      for (let level = 1; level < levels; level++) data = aggregate3([TOKEN, MULTICALL3], data);
      return data;
    };
    const refusal = (data: Hex) => p.callRefusal({ method: 'eth_call', params: [{ to: MULTICALL3, data }, 'latest'] });
    expect(refusal(nested(2, TOKEN))).toBeNull();
    expect(refusal(nested(3, TOKEN))).toBeNull();
    expect(refusal(nested(2, OTHER))).toBe(RpcMessages.contractNotAllowed(OTHER));
    expect(refusal(nested(3, OTHER))).toBe(RpcMessages.contractNotAllowed(OTHER));
    expect(refusal(nested(4, TOKEN))).toBe(RpcMessages.contractCallsUnchecked('eth_call'));
  });

  it('checks Multicall3 calldata under every spelling a Go node reads, and refuses calldata it cannot check', () => {
    const p = policy({ allowedContracts: [TOKEN, MULTICALL3] });
    const refusal = (tx: Record<string, unknown>) => p.callRefusal({ method: 'eth_call', params: [tx, 'latest'] });
    const allowed = aggregate3([TOKEN]);
    const refused = aggregate3([TOKEN, OTHER]);
    expect(refusal({ to: MULTICALL3, input: allowed })).toBeNull();
    expect(refusal({ to: MULTICALL3, data: allowed, input: allowed })).toBeNull();
    for (const tx of [
      { to: MULTICALL3, input: refused },
      { to: MULTICALL3, DATA: refused },
      { to: MULTICALL3, Input: refused },
      { to: MULTICALL3, data: allowed, input: refused },
      { to: MULTICALL3, input: allowed, DaTa: refused },
      // geth reads the last `to` of any case: each one naming Multicall3 has its calldata read.
      { to: TOKEN, TO: MULTICALL3, data: refused },
      { TO: MULTICALL3.toUpperCase().replace('0X', '0x'), data: refused },
    ]) {
      expect(refusal(tx), JSON.stringify(Object.keys(tx))).toBe(RpcMessages.contractNotAllowed(OTHER));
    }
    const unchecked = RpcMessages.contractCallsUnchecked('eth_call');
    for (const tx of [
      { to: MULTICALL3 },
      { to: MULTICALL3, data: null },
      { to: MULTICALL3, data: '0x' },
      { to: MULTICALL3, data: allowed, input: null },
      // Another function, calldata cut short, or not bytes as a node reads them.
      { to: MULTICALL3, data: balanceOf },
      { to: MULTICALL3, data: allowed.slice(0, -64) },
      { to: MULTICALL3, data: `${allowed}0` },
      { to: MULTICALL3, data: allowed.slice(2) },
      { to: MULTICALL3, data: 42 },
    ]) {
      expect(refusal(tx), JSON.stringify(tx).slice(0, 80)).toBe(unchecked);
    }
  });

  it('refuses Multicall3 calldata whose calls point at shared bytes more often than its size allows', () => {
    const p = policy({ allowedContracts: [TOKEN, MULTICALL3] });
    // 300 calls whose heads are one and the same call to Multicall3, whose 300 calls are one: the
    // node would run 90 000 calls from 20 KB; each level read as a library encodes it would pass.
    const word = (n: number) => n.toString(16).padStart(64, '0');
    const shared = (target: Hex, inner: Hex, count: number) => {
      const calldata = inner.slice(2);
      const tuple = `${word(0).slice(0, 24)}${target.slice(2).toLowerCase()}${word(1)}${word(96)}${word(calldata.length / 2)}${calldata}`;
      return `0x82ad56cb${word(32)}${word(count)}${word(32 * count).repeat(count)}${tuple}` as Hex;
    };
    const inner = shared(TOKEN, balanceOf, 300);
    expect(p.callRefusal({ method: 'eth_call', params: [{ to: MULTICALL3, data: inner }] })).toBeNull();
    const outer = shared(MULTICALL3, inner, 300);
    const started = performance.now();
    expect(p.callRefusal({ method: 'eth_call', params: [{ to: MULTICALL3, data: outer }] })).toBe(
      RpcMessages.contractCallsUnchecked('eth_call'),
    );
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('checks a signed transaction’s `to`: an allowed contract passes, another, a Multicall3 call to another, or a creation is refused', async () => {
    const p = policy({ allowedContracts: [TOKEN, MULTICALL3] });
    const refusal = (raw: unknown) => p.callRefusal({ method: 'eth_sendRawTransaction', params: [raw] });
    expect(refusal(await signed({ to: TOKEN, data: balanceOf }))).toBeNull();
    expect(refusal(await signed({ to: MULTICALL3, data: aggregate3([TOKEN]) }))).toBeNull();
    expect(
      refusal(
        await signer.signTransaction({ type: 'legacy', chainId: 137, nonce: 1, gas: 21_000n, gasPrice: 1n, to: TOKEN }),
      ),
    ).toBeNull();
    expect(refusal(await signed({ to: OTHER }))).toBe(RpcMessages.contractNotAllowed(OTHER));
    expect(refusal(await signed({ to: MULTICALL3, data: aggregate3([TOKEN, OTHER]) }))).toBe(
      RpcMessages.contractNotAllowed(OTHER),
    );
    expect(refusal(await signed({ to: MULTICALL3, data: balanceOf }))).toBe(
      RpcMessages.contractCallsUnchecked('eth_sendRawTransaction'),
    );
    // A creation runs code of its own choosing, which may call any contract.
    expect(refusal(await signed({ data: '0x6000' }))).toBe(RpcMessages.contractMissing('eth_sendRawTransaction'));
    for (const raw of ['0x1234', '0x', 42, undefined]) {
      expect(refusal(raw)).toBe(RpcMessages.contractTransactionUnreadable('eth_sendRawTransaction'));
    }
    // Without contracts, any signed transaction is the node's business.
    expect(
      policy({ allowedMethods: ['eth_sendRawTransaction'] }).callRefusal({
        method: 'eth_sendRawTransaction',
        params: ['0x1234'],
      }),
    ).toBeNull();
  });

  it('refuses, for a key with contracts, an EIP-7702 authorization in a call or a signed transaction', async () => {
    const p = policy({ allowedContracts: [TOKEN] });
    const authorization = { chainId: '0x89', address: OTHER, nonce: '0x0', yParity: '0x0', r: '0x1', s: '0x1' };
    for (const spelling of ['authorizationList', 'AUTHORIZATIONLIST']) {
      expect(
        p.callRefusal({ method: 'eth_call', params: [{ to: TOKEN, [spelling]: [authorization] }, 'latest'] }),
      ).toBe(RpcMessages.contractDelegation('eth_call'));
    }
    const delegation = await signer.signAuthorization({ chainId: 137, contractAddress: OTHER, nonce: 1 });
    const raw = await signer.signTransaction({
      type: 'eip7702',
      chainId: 137,
      nonce: 0,
      gas: 100_000n,
      maxFeePerGas: 1_000_000_000n,
      maxPriorityFeePerGas: 1n,
      to: TOKEN,
      authorizationList: [delegation],
    });
    expect(p.callRefusal({ method: 'eth_sendRawTransaction', params: [raw] })).toBe(
      RpcMessages.contractDelegation('eth_sendRawTransaction'),
    );
  });
});
