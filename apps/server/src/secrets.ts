import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config.ts';

export interface Secrets {
  /** ES256 (P-256) private key that signs identity tokens. */
  signingKey: KeyObject;
  /** HMAC key for verification codes and other short secrets stored as hashes. */
  hmacSecret: string;
  /** Token a local admin command line presents to the running server (embedded default only). */
  adminToken: string;
  /** AES-256 key sealing secrets stored in the database (see seal / unseal). */
  dataKey: Buffer;
  /** Master seed every forwarding and gas fee funding wallet key is derived from (never logged). */
  walletSeed: Buffer;
}

interface StoredSecrets {
  signingKeyPem: string;
  hmacSecret: string;
  adminToken: string;
  /** Added after the first release: a data directory made before has none until the next start. */
  dataKey?: string;
  /** Added with token forwarding, the same way. */
  walletSeed?: string;
}

export const secretsFile = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'secrets.json');

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
    dataKey: randomBytes(32).toString('base64url'),
    walletSeed: randomBytes(32).toString('hex'),
  };
  await mkdir(dir, { recursive: true });
  // Written whole under a name of its own, then linked into place: a process starting beside this
  // one either finds no file or the whole file, never a half-written one; link refuses to replace.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(draft, JSON.stringify(fresh), { mode: 0o600 });
  try {
    await link(draft, file);
    return fresh;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return JSON.parse(await readFile(file, 'utf8')) as StoredSecrets;
  } finally {
    await rm(draft, { force: true });
  }
}

/**
 * Production takes its secrets from the environment; the embedded default generates them once
 * into DATA_DIR (mode 0600) so a fresh clone runs with no set-up.
 */
export async function loadSecrets(config: Config): Promise<Secrets> {
  const fromEnv =
    config.AUTH_SIGNING_KEY && config.AUTH_HMAC_SECRET && config.DATA_ENCRYPTION_KEY && config.WALLET_MASTER_SEED;
  const stored: StoredSecrets = fromEnv
    ? { signingKeyPem: '', hmacSecret: '', adminToken: '', dataKey: config.DATA_ENCRYPTION_KEY }
    : await withLaterSecrets(secretsFile(config), await readOrCreate(secretsFile(config), config.dataDir));
  const walletSeed = (config.WALLET_MASTER_SEED ?? stored.walletSeed ?? '').replace(/^0x/, '');
  return {
    signingKey: createPrivateKey((config.AUTH_SIGNING_KEY ?? stored.signingKeyPem).replace(/\\n/g, '\n')),
    hmacSecret: config.AUTH_HMAC_SECRET ?? stored.hmacSecret,
    adminToken: stored.adminToken,
    dataKey: Buffer.from(config.DATA_ENCRYPTION_KEY ?? stored.dataKey ?? '', 'base64url'),
    walletSeed: Buffer.from(walletSeed, 'hex'),
  };
}

/** A data directory from before the data key or the wallet seed gets them, written once (mode 0600). */
async function withLaterSecrets(file: string, stored: StoredSecrets): Promise<StoredSecrets> {
  if (stored.dataKey && stored.walletSeed) return stored;
  const updated = {
    ...stored,
    dataKey: stored.dataKey ?? randomBytes(32).toString('base64url'),
    walletSeed: stored.walletSeed ?? randomBytes(32).toString('hex'),
  };
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(draft, JSON.stringify(updated), { mode: 0o600 });
  await rename(draft, file);
  return updated;
}

/** AES-256-GCM: "v1.iv.tag.ciphertext", base64url parts; the key never leaves the process. */
export function seal(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function unseal(key: Buffer, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * A key of its own for one use, derived from a server secret: every process holding the secret
 * derives the same one, and no use's key reveals the secret or another use's key.
 */
export const derivedKey = (secret: string, use: string): Buffer => createHmac('sha256', secret).update(use).digest();
