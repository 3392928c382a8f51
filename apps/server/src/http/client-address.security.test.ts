import { describe, expect, it } from 'vitest';
import { testDatabases } from '../testing/databases.ts';
import { serverFor } from '../testing/server.ts';

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
