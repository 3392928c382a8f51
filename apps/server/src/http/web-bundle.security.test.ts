import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { loadSecrets } from '../secrets.ts';
import { reportFigures } from '../testing/report.ts';
import { findSecrets, serverSecrets, type Wanted } from '../testing/secret-scan.ts';

const root = path.resolve(import.meta.dirname, '../../../..');
const run = promisify(execFile);

/**
 * Builds the web app the way a release does, with every server secret set in the environment (and
 * a DATA_DIR holding generated ones), then reads every file of the build for them.
 */
describe('the web bundle', () => {
  let outDir: string;
  let dataDir: string;
  let files: Array<{ where: string; text: string }> = [];
  const wanted: Wanted[] = [];

  beforeAll(async () => {
    outDir = await mkdtemp(path.join(tmpdir(), 'ebs-web-bundle-'));
    dataDir = await mkdtemp(path.join(tmpdir(), 'ebs-web-bundle-data-'));
    const generated = await loadSecrets(loadConfig({ DATA_DIR: dataDir }));
    const canary = (label: string) => `${label}${randomBytes(16).toString('hex')}`;
    const env = {
      AUTH_SIGNING_KEY: generated.signingKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      AUTH_HMAC_SECRET: canary('hmac'),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
      WALLET_MASTER_SEED: randomBytes(32).toString('hex'),
      STRIPE_SECRET_KEY: canary('sk_test_'),
      OIDC_FIRST_CLIENT_SECRET: canary('oidcfirst'),
      OIDC_SECOND_CLIENT_SECRET: canary('oidcsecond'),
    };
    wanted.push(...serverSecrets(generated));
    for (const [name, value] of Object.entries(env)) wanted.push({ name, value });
    wanted.push(
      { name: 'a Stripe secret key', value: /\b(?:sk|rk)_(?:test|live)_[A-Za-z0-9]{8,}/ },
      { name: 'a webhook signing secret', value: /whsec_[A-Za-z0-9+/]{20,}/ },
    );
    await run(
      path.join(root, 'node_modules/.bin/vite'),
      ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
      { cwd: path.join(root, 'apps/web'), env: { ...process.env, ...env, DATA_DIR: dataDir } },
    );
    // The .br and .gz files are compressed copies of the files read here.
    const names = (await readdir(outDir, { recursive: true })).filter((n) => /\.(js|css|html|svg|json|txt)$/.test(n));
    files = await Promise.all(
      names.map(async (name) => ({ where: name, text: await readFile(path.join(outDir, name), 'utf8') })),
    );
  }, 180_000);
  afterAll(async () => {
    await rm(outDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it('holds no server secret', () => {
    expect(files.filter((f) => f.where.endsWith('.js')).length).toBeGreaterThan(5);
    expect(findSecrets(files, wanted)).toEqual([]);
    reportFigures('hardening: web bundle', {
      'bundle files scanned': files.length,
      'secrets looked for': wanted.length,
      'secrets found': 0,
    });
  });

  it('has no inline script or inline event handler in its pages', () => {
    const pages = files.filter((f) => f.where.endsWith('.html'));
    expect(pages.map((p) => p.where)).toContain('index.html');
    for (const page of pages) {
      const scripts = page.text.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.filter((tag) => !/\bsrc=/.test(tag))).toEqual([]);
      expect(page.text).not.toMatch(/\son[a-z]+\s*=/i);
      expect(page.text).not.toMatch(/javascript:/i);
    }
  });
});
