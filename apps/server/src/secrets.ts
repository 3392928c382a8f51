import { createPrivateKey, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config.ts';

export interface Secrets {
  /** ES256 (P-256) private key that signs identity tokens. */
  signingKey: KeyObject;
  /** HMAC key for verification codes and other short secrets stored as hashes. */
  hmacSecret: string;
  /** Token a local admin command line presents to the running server (embedded default only). */
  adminToken: string;
}

interface StoredSecrets {
  signingKeyPem: string;
  hmacSecret: string;
  adminToken: string;
}

export const secretsFile = (config: Config) => path.join(config.dataDir, 'secrets.json');

async function readOrCreate(file: string, dir: string): Promise<StoredSecrets> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as StoredSecrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const fresh: StoredSecrets = {
    signingKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    hmacSecret: randomBytes(32).toString('base64url'),
    adminToken: randomBytes(32).toString('base64url'),
  };
  await mkdir(dir, { recursive: true });
  try {
    await writeFile(file, JSON.stringify(fresh), { mode: 0o600, flag: 'wx' });
    return fresh;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return JSON.parse(await readFile(file, 'utf8')) as StoredSecrets;
  }
}

/**
 * Production takes its secrets from the environment; the embedded default generates them once
 * into DATA_DIR (mode 0600) so a fresh clone runs with no set-up.
 */
export async function loadSecrets(config: Config): Promise<Secrets> {
  const stored =
    config.AUTH_SIGNING_KEY && config.AUTH_HMAC_SECRET
      ? { signingKeyPem: config.AUTH_SIGNING_KEY, hmacSecret: config.AUTH_HMAC_SECRET, adminToken: '' }
      : await readOrCreate(secretsFile(config), config.dataDir);
  return {
    signingKey: createPrivateKey((config.AUTH_SIGNING_KEY ?? stored.signingKeyPem).replace(/\\n/g, '\n')),
    hmacSecret: config.AUTH_HMAC_SECRET ?? stored.hmacSecret,
    adminToken: stored.adminToken,
  };
}
