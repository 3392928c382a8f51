import { startOpenIdProvider as startProvider } from '../apps/server/src/testing/openid-provider.ts';

/** The provider the journeys' server knows as its second slot (e2e/playwright.config.ts names the same values). */
export const E2E_OIDC = {
  port: Number(process.env.E2E_PORT ?? 8181) + 100,
  clientId: 'ebs-console-e2e',
  clientSecret: 'e2e-client-secret',
};

/**
 * The server tests' real OpenID provider on the journeys' fixed port and client: any login name
 * (here an e-mail) and any password sign in, with that e-mail verified.
 */
export const startOpenIdProvider = (consoleUrl: string) =>
  startProvider({
    redirectUris: [`${consoleUrl}/auth/third-party/second/callback`],
    port: E2E_OIDC.port,
    client: { id: E2E_OIDC.clientId, secret: E2E_OIDC.clientSecret },
  });
