import { RpcMessages } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { NONE, OTHER, policy, TOKEN } from './key-policy.test-kit.ts';
import { KeyPolicy } from './key-policy.ts';

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
});
