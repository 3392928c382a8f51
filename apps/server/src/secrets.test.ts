import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { loadSecrets, seal, unseal } from './secrets.ts';

const dirs: string[] = [];
const dataDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ebs-secrets-'));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('secrets', () => {
  it('seals a value so that only the same key opens it, and never twice the same', () => {
    const key = randomBytes(32);
    const sealed = seal(key, 'whsec_secret');
    expect(sealed).not.toContain('whsec_secret');
    expect(seal(key, 'whsec_secret')).not.toBe(sealed);
    expect(unseal(key, sealed)).toBe('whsec_secret');
    expect(() => unseal(randomBytes(32), sealed)).toThrow();
    const [v, iv, tag, data = ''] = sealed.split('.');
    const tampered = [v, iv, tag, `${data.slice(0, -2)}AA`].join('.');
    expect(() => unseal(key, tampered)).toThrow();
  });

  it('generates a data key once into DATA_DIR, and adds one to a data directory made before it', async () => {
    const dir = await dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    const first = await loadSecrets(config);
    expect(first.dataKey).toHaveLength(32);
    expect((await loadSecrets(config)).dataKey.equals(first.dataKey)).toBe(true);

    const file = path.join(dir, 'secrets.json');
    const { dataKey: _dropped, ...older } = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify(older));
    const upgraded = await loadSecrets(config);
    expect(upgraded.dataKey).toHaveLength(32);
    expect(upgraded.hmacSecret).toBe(first.hmacSecret);
    expect((await loadSecrets(config)).dataKey.equals(upgraded.dataKey)).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('gives processes starting at once on a new data directory one and the same set of secrets', async () => {
    const dir = await dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    const all = await Promise.all(Array.from({ length: 8 }, () => loadSecrets(config)));
    expect(new Set(all.map((s) => s.hmacSecret)).size).toBe(1);
    expect(new Set(all.map((s) => s.dataKey.toString('hex'))).size).toBe(1);
    expect(await readdir(dir)).toEqual(['secrets.json']);
  });

  it('takes the data key from DATA_ENCRYPTION_KEY when the environment gives every secret', async () => {
    const key = randomBytes(32);
    const config = loadConfig({
      DATA_DIR: await dataDir(),
      AUTH_SIGNING_KEY: (await loadSecrets(loadConfig({ DATA_DIR: await dataDir() }))).signingKey
        .export({ type: 'pkcs8', format: 'pem' })
        .toString(),
      AUTH_HMAC_SECRET: 'h'.repeat(32),
      DATA_ENCRYPTION_KEY: key.toString('base64url'),
    });
    expect((await loadSecrets(config)).dataKey.equals(key)).toBe(true);
  });
});
