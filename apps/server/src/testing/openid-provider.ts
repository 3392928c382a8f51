/// <reference path="./oidc-provider.d.ts" />
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** Claims a test account hands out besides `sub`. */
export type TestClaims = Record<string, unknown>;

export interface TestOpenIdProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Claims per login name; a login not listed is an e-mail address the provider has verified. */
  accounts: Map<string, TestClaims>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider) on a local port (random unless given), with its development login and
 * consent pages: any login name and any password sign in. By default, as the OpenID Connect
 * conformance profile has it, the profile and e-mail claims come from the userinfo endpoint only.
 */
export async function startOpenIdProvider(options: {
  redirectUris: string[];
  claimsInIdToken?: boolean;
  /** Offers no `phone` scope, as Google and GitLab do not. */
  withoutPhone?: boolean;
  /** A fixed port and client, for a console configured before the provider starts (the journeys). */
  port?: number;
  client?: { id: string; secret: string };
}): Promise<TestOpenIdProvider> {
  const accounts = new Map<string, TestClaims>();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = options.client?.id ?? 'ebs-console-test';
  const clientSecret = options.client?.secret ?? 'test-client-secret-that-must-never-be-logged';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name'],
      ...(options.withoutPhone ? {} : { phone: ['phone_number', 'phone_number_verified'] }),
    },
    conformIdTokenClaims: !options.claimsInIdToken,
    cookies: { keys: ['test-provider-cookie-key'] },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, ...(accounts.get(sub) ?? { email: sub, email_verified: true, name: 'Olive Provider' }) }),
    }),
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A small cookie jar: every cookie goes to every path of its host, which is all these flows need. */
export class Jar {
  private readonly cookies = new Map<string, string>();

  keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export interface ProviderTrip {
  /** The console's answer to the start: the provider's authorization URL, or /login?error=... */
  startLocation: string;
  /** Where the provider sent the browser back (rewritten to the test server's address), if it did. */
  callbackUrl?: string;
  /** The console's cookies as the browser holds them after the start. */
  consoleJar: Jar;
  /** The console's answer to the callback. */
  callback?: Response;
}

const get = (url: string, jar: Jar, init: RequestInit = {}) =>
  fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie: jar.header() } });

/**
 * Goes through a third-party sign-in as a browser would: the console's start, the provider's
 * login and consent pages, and back to the console's callback.
 */
export async function signInThroughProvider(
  consoleUrl: string,
  publicUrl: string,
  slot: string,
  login: string,
  options: { consent?: 'accept' | 'abort'; callback?: boolean } = {},
): Promise<ProviderTrip> {
  const consoleJar = new Jar();
  const start = await get(`${consoleUrl}/auth/third-party/${slot}/start`, consoleJar);
  consoleJar.keep(start);
  const startLocation = start.headers.get('location') ?? '';
  const trip: ProviderTrip = { startLocation, consoleJar };
  if (!startLocation.startsWith('http')) return trip;

  const providerJar = new Jar();
  let url = startLocation;
  for (let step = 0; step < 20 && !url.startsWith(publicUrl); step++) {
    let response = await get(url, providerJar);
    providerJar.keep(response);
    if (response.status === 200) {
      const page = await response.text();
      const action = page.match(/action="([^"]+)"/)?.[1];
      const prompt = page.match(/name="prompt" value="(\w+)"/)?.[1];
      if (!action || !prompt) throw new Error(`unexpected provider page: ${page.slice(0, 300)}`);
      if (prompt === 'consent' && options.consent === 'abort') {
        response = await get(new URL(`${new URL(action).pathname}/abort`, url).href, providerJar);
      } else {
        const form: Record<string, string> =
          prompt === 'login' ? { prompt, login, password: 'any password' } : { prompt };
        response = await get(new URL(action, url).href, providerJar, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(form).toString(),
        });
      }
      providerJar.keep(response);
    }
    const next = response.headers.get('location');
    if (!next) throw new Error(`the provider answered ${response.status} without a redirect`);
    url = new URL(next, url).href;
  }
  trip.callbackUrl = consoleUrl + url.slice(publicUrl.length);
  if (options.callback !== false) {
    trip.callback = await get(trip.callbackUrl, consoleJar);
    consoleJar.keep(trip.callback);
  }
  return trip;
}
