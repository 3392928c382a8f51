import { describe, expect, it } from 'vitest';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';

/** The attributes of the refresh cookie a sign-in sets, by name (lower case), values as sent. */
async function refreshCookie(url: string): Promise<Map<string, string>> {
  const c = new Client(url);
  const { email, password } = await c.signUp();
  const signIn = await c.post('/auth/sign-in', { email, password });
  const header = signIn.headers.get('set-cookie') ?? '';
  expect(header).toMatch(/^ebs_refresh=/);
  return new Map(
    header
      .split(';')
      .slice(1)
      .map((part) => {
        const [name = '', value = ''] = part.trim().split('=');
        return [name.toLowerCase(), value] as const;
      }),
  );
}

describe('the refresh cookie of a console served over https', () => {
  const server = serverFor(testDatabases[0]!, { PUBLIC_URL: 'https://console.example.com' });

  it('is Secure, httpOnly, SameSite=Strict and sent to /auth only', async () => {
    const cookie = await refreshCookie(server().url);
    expect(cookie.has('secure')).toBe(true);
    expect(cookie.has('httponly')).toBe(true);
    expect(cookie.get('samesite')).toBe('Strict');
    expect(cookie.get('path')).toBe('/auth');
  });
});

describe('the refresh cookie of a console on local http', () => {
  const server = serverFor(testDatabases[0]!, { PUBLIC_URL: 'http://localhost:8080' });

  it('is not Secure (the browser would drop it over http), and otherwise the same', async () => {
    const cookie = await refreshCookie(server().url);
    expect(cookie.has('secure')).toBe(false);
    expect(cookie.has('httponly')).toBe(true);
    expect(cookie.get('samesite')).toBe('Strict');
  });
});
