import { describe, expect, it } from 'vitest';
import {
  KeyRuleMessages,
  parseContractRule,
  parseIpRule,
  parseKeyRuleList,
  parseMethodRule,
  parseOriginRule,
} from './key-rules.ts';

const stored = (parsed: { ok: boolean; value?: string; message?: string }) =>
  parsed.ok ? parsed.value : parsed.message;

describe('the entries of a key’s rule lists', () => {
  it('writes origins one way and refuses anything with a path, a query, a user, a bare wildcard', () => {
    expect(stored(parseOriginRule('https://App.Example.com/'))).toBe('https://app.example.com');
    expect(stored(parseOriginRule('https://app.example.com:443'))).toBe('https://app.example.com');
    expect(stored(parseOriginRule('http://localhost:5173'))).toBe('http://localhost:5173');
    expect(stored(parseOriginRule('https://*.Example.com'))).toBe('https://*.example.com');
    expect(stored(parseOriginRule('http://[::1]:8080'))).toBe('http://[::1]:8080');
    for (const bad of [
      'app.example.com',
      'https://app.example.com/swap',
      'https://app.example.com?x=1',
      'https://user@app.example.com',
      'ftp://app.example.com',
      'https://*.com',
      'https://a.*.example.com',
      'https://app.example.com:70000',
      'https://exa mple.com',
    ]) {
      expect(stored(parseOriginRule(bad))).toBe(KeyRuleMessages.origin(bad));
    }
  });

  it('takes IPv4 and IPv6 addresses and CIDR ranges, and refuses the rest', () => {
    expect(stored(parseIpRule('203.0.113.7'))).toBe('203.0.113.7');
    expect(stored(parseIpRule('203.0.113.7/32'))).toBe('203.0.113.7');
    expect(stored(parseIpRule('10.0.0.0/8'))).toBe('10.0.0.0/8');
    expect(stored(parseIpRule('2001:DB8::/32'))).toBe('2001:db8::/32');
    expect(stored(parseIpRule('::ffff:192.0.2.1'))).toBe('::ffff:192.0.2.1');
    expect(stored(parseIpRule('1:2:3:4:5:6:7:8/128'))).toBe('1:2:3:4:5:6:7:8');
    for (const bad of [
      '10.0.0.256',
      '10.0.0',
      '010.0.0.1',
      '10.0.0.0/33',
      '10.0.0.0/',
      '2001:db8::/129',
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      'fe80::1%eth0',
      'localhost',
      '10.0.0.0/8/8',
    ]) {
      expect(stored(parseIpRule(bad))).toBe(KeyRuleMessages.ip(bad));
    }
  });

  it('takes method names and namespaces, and contract addresses in any case', () => {
    expect(stored(parseMethodRule(' eth_call '))).toBe('eth_call');
    expect(stored(parseMethodRule('debug_*'))).toBe('debug_*');
    for (const bad of ['eth call', 'eth_', '*', 'ethcall', 'eth_c*'])
      expect(stored(parseMethodRule(bad))).toBe(KeyRuleMessages.method(bad));
    expect(stored(parseContractRule('0xAbCdEf0000000000000000000000000000000001'))).toBe(
      '0xabcdef0000000000000000000000000000000001',
    );
    for (const bad of [
      '0x1234',
      'abcdef0000000000000000000000000000000001',
      '0xZZ00000000000000000000000000000000000001',
    ]) {
      expect(stored(parseContractRule(bad))).toBe(KeyRuleMessages.contract(bad));
    }
  });

  it('drops duplicates, keeps the order, names the first wrong entry, and holds 100 entries at most', () => {
    expect(parseKeyRuleList('allowedOrigins', ['https://b.io', 'https://a.io', 'https://B.io/'])).toEqual({
      ok: true,
      values: ['https://b.io', 'https://a.io'],
    });
    expect(parseKeyRuleList('allowedIps', ['10.0.0.1', 'x', 'y'])).toEqual({
      ok: false,
      message: KeyRuleMessages.ip('x'),
    });
    const many = Array.from({ length: 101 }, (_, i) => `eth_m${i}`);
    expect(parseKeyRuleList('allowedMethods', many)).toEqual({
      ok: false,
      message: KeyRuleMessages.tooMany('allowed methods'),
    });
    expect(parseKeyRuleList('allowedMethods', many.slice(0, 100))).toMatchObject({ ok: true });
  });
});
