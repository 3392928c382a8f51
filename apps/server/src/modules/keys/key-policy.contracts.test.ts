import { RpcMessages } from '@ebs/contract';
import { encodeFunctionData, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  aggregate3,
  balanceOf,
  CALL_METHODS,
  MULTICALL3,
  multicall3Abi,
  multicalls,
  OTHER,
  policy,
  signed,
  signer,
  TOKEN,
} from './key-policy.test-kit.ts';

describe('a key’s policy for contracts that run or name others', () => {
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
