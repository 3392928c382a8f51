import { describe, expect, it } from 'vitest';
import { testDatabases } from '../testing/databases.ts';
import { reportFigures } from '../testing/report.ts';
import { serverFor } from '../testing/server.ts';
import { addressKey } from './rate-limit.ts';

/** Per-IP limits need the real client address: forwarded only from trusted proxies. */
const burst = async (url: string, forwardedFor: string, times: number) => {
  let last = 0;
  for (let i = 0; i < times; i++) {
    last = (
      await fetch(`${url}/api/v1.0/user/checkIsValidCode?referralCode=X`, {
        headers: { 'x-forwarded-for': forwardedFor },
      })
    ).status;
  }
  return last;
};

describe('client address behind one trusted proxy', () => {
  const server = serverFor(testDatabases[0]!, { TRUST_PROXY: '1' });

  it('limits each forwarded client on its own', async () => {
    expect(await burst(server().url, '198.51.100.7', 60)).toBe(200);
    expect(await burst(server().url, '198.51.100.7', 1)).toBe(429);
    expect(await burst(server().url, '198.51.100.8', 1)).toBe(200);
  });
});

describe('client address with no trusted proxy', () => {
  const server = serverFor(testDatabases[0]!);

  it('ignores a forged X-Forwarded-For', async () => {
    for (let i = 0; i < 60; i++) await burst(server().url, `203.0.113.${i}`, 1);
    expect(await burst(server().url, '203.0.113.200', 1)).toBe(429);
  });
});

describe('IPv6 clients behind one trusted proxy', () => {
  const server = serverFor(testDatabases[0]!, { TRUST_PROXY: '1' });

  it('counts a client rotating through the addresses of its /64 as one', async () => {
    // A host given 2001:db8:7:1::/64 can pick any of 2^64 addresses for each request.
    for (let i = 0; i < 60; i++) await burst(server().url, `2001:db8:7:1:${i.toString(16)}::${i + 1}`, 1);
    expect(await burst(server().url, '2001:db8:7:1:ffff:ffff:ffff:fffe', 1)).toBe(429);
    expect(await burst(server().url, '2001:db8:7:2::1', 1)).toBe(200);
    reportFigures('per-address limits by IPv6 /64', { addresses: 61, limit: 60, refusedFromSame64: 1 });
  });
});

describe('the address a limit counts', () => {
  it('is an IPv4 address as it is, an IPv6 one by its /64', () => {
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKey('2001:db8:7:1:a:b:c:d')).toBe('2001:db8:7:1::/64');
    expect(addressKey('2001:0db8:0007:0001::1')).toBe('2001:db8:7:1::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
