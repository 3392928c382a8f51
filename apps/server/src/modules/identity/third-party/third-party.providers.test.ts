import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config.ts';
import { productionEnv } from '../../../testing/production-env.ts';
import { providerSettings, publicProviders, redirectUri } from './third-party.providers.ts';

const first = {
  OIDC_FIRST_ISSUER: 'https://accounts.google.com',
  OIDC_FIRST_CLIENT_ID: 'client-1',
  OIDC_FIRST_CLIENT_SECRET: 'secret-1',
};
const second = {
  OIDC_SECOND_NAME: 'Acme ID',
  OIDC_SECOND_ISSUER: 'https://id.acme.example/realms/main',
  OIDC_SECOND_CLIENT_ID: 'client-2',
  OIDC_SECOND_CLIENT_SECRET: 'secret-2',
};

describe('third-party provider settings', () => {
  it('names the buttons Google and GitLab, neither configured, with an empty environment', () => {
    expect(publicProviders(loadConfig({}))).toEqual([
      { id: 'first', name: 'Google', configured: false },
      { id: 'second', name: 'GitLab', configured: false },
    ]);
  });

  it('offers a configured slot by its configured name, and the second slot only outside prod', () => {
    const dev = loadConfig({ ...first, ...second });
    expect(publicProviders(dev)).toEqual([
      { id: 'first', name: 'Google', configured: true },
      { id: 'second', name: 'Acme ID', configured: true },
    ]);
    expect(providerSettings(dev, 'second')).toMatchObject({ issuer: second.OIDC_SECOND_ISSUER, clientId: 'client-2' });
    const prod = loadConfig(productionEnv({ ...first, ...second }));
    expect(publicProviders(prod)).toEqual([{ id: 'first', name: 'Google', configured: true }]);
    expect(providerSettings(prod, 'second')).toBeUndefined();
  });

  it('refuses a slot configured in part, without echoing the secret', () => {
    const attempt = () => loadConfig({ OIDC_SECOND_ISSUER: 'https://id.example', OIDC_SECOND_CLIENT_SECRET: 'shh-42' });
    expect(attempt).toThrow(
      'Invalid configuration: OIDC_SECOND_ISSUER, OIDC_SECOND_CLIENT_ID and OIDC_SECOND_CLIENT_SECRET go together',
    );
    expect(attempt).not.toThrow(/shh-42/);
  });

  it('talks to issuers over https only in production', () => {
    expect(() => loadConfig(productionEnv({ ...first, OIDC_FIRST_ISSUER: 'http://idp.internal' }))).toThrow(
      'Invalid configuration: OIDC_FIRST_ISSUER must be https when NODE_ENV=production',
    );
    expect(() => loadConfig(productionEnv(first))).not.toThrow();
  });

  it('builds the redirect URI the operator registers from PUBLIC_URL', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://console.example.com' });
    expect(redirectUri(config, 'first')).toBe('https://console.example.com/auth/third-party/first/callback');
    expect(redirectUri(config, 'second')).toBe('https://console.example.com/auth/third-party/second/callback');
  });
});
