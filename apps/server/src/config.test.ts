import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('configuration', () => {
  it('uses the embedded defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 8080, APP_ENV: 'dev', ID_TOKEN_TTL_SECONDS: 900 });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  it('refuses a bad value with one clear line', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(
      /^Invalid configuration: PORT expected integer \(got "eighty"\)$/,
    );
    expect(() => loadConfig({ APP_ENV: 'qa' })).toThrow(/^Invalid configuration: APP_ENV/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/^Invalid configuration: DATABASE_URL/);
    expect(() => loadConfig({ ANALYTICS_SCRIPT_URL: 'http://analytics.example.com/tag.js' })).toThrow(
      /^Invalid configuration: ANALYTICS_SCRIPT_URL/,
    );
  });

  it('never repeats a secret, or an address that may hold a password, in its error', () => {
    for (const [name, value] of [
      ['DATA_ENCRYPTION_KEY', 'short-but-secret-key'],
      ['AUTH_HMAC_SECRET', 'secret-hmac'],
      ['WALLET_MASTER_SEED', 'not-hex-secret-seed'],
      ['DATABASE_URL', 'mysql://root:hunter2@db/ebs'],
      ['SMTP_URL', 'ftp://mail:hunter2@smtp'],
    ]) {
      expect(() => loadConfig({ [name as string]: value })).toThrow(
        new RegExp(`^Invalid configuration: ${name} .*\\(got a value of another form\\)$`),
      );
      expect(() => loadConfig({ [name as string]: value })).not.toThrow(value as string);
    }
  });

  it('requires the production secrets in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      'Invalid configuration: AUTH_SIGNING_KEY is required when NODE_ENV=production',
    );
  });
});
