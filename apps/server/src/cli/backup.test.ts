import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AccountDetails, type AccountSummary, type ApiKeyList, type CreatedApiKey, rpcUrl } from '@ebs/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBackup, writeBackup } from '../app/backup-file.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { Client } from '../testing/client.ts';
import { rpcCall } from '../testing/keys.ts';
import { reportFigures } from '../testing/report.ts';
import { serverCommand } from '../testing/server-command.ts';
import { type ServerProcess, startServerProcess } from '../testing/server-process.ts';
import { runBackupCommand } from './backup.ts';

const { DATABASE_URL: _postgres, ...baseEnv } = process.env;

/** An upstream node that answers every call, so that a key's worth shows at the gateway. */
const upstream = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: (JSON.parse(body) as { id: unknown }).id, result: '0x1' }));
  });
});
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));
const RPC_UPSTREAMS = JSON.stringify({
  'ethereum/mainnet': [`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`],
});

/** `npm run admin -- …` as an operator runs it, on the given data directory. */
function admin(dataDir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...serverCommand('admin'), ...args],
      { env: { ...baseEnv, NODE_ENV: 'test', DATA_DIR: dataDir, PORT: '1', LOG_LEVEL: 'warn' }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A command through the running server, as the command line sends it. */
async function command(server: ServerProcess, dataDir: string, args: string[]) {
  const { adminToken } = JSON.parse(await readFile(path.join(dataDir, 'secrets.json'), 'utf8'));
  const response = await fetch(`${server.url}/admin/command`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': adminToken },
    body: JSON.stringify({ args }),
  });
  expect(response.status).toBe(200);
  return response.json();
}

/** A signed-up owner of an account with one API key. */
async function customer(url: string) {
  const client = new Client(url);
  const user = await client.signUp();
  const created = await client.post<AccountSummary>(
    '/api/v1.0/account',
    { accountName: 'Kept' },
    { 'ebs-account-id': '' },
  );
  const h = { 'ebs-account-id': created.body.data.id };
  const newKey = async (apiKeyName: string) =>
    (await client.post<CreatedApiKey>('/api/v1.0/key/', { apiKeyName }, h)).body.data.key;
  return { client, ...user, accountId: created.body.data.id, h, key: await newKey('kept key'), newKey };
}

const gateway = (url: string, key: { keyId: string; key: string }) =>
  rpcCall(rpcUrl(url, 'ethereum/mainnet', key.keyId, key.key), { jsonrpc: '2.0', id: 1, method: 'eth_chainId' });

/** What a person sees of an account and the state of a data directory, to compare before and after. */
async function seen(c: Awaited<ReturnType<typeof customer>>) {
  const details = (await c.client.get<AccountDetails>('/api/v1.0/account/details', c.h)).body.data;
  const keys = (await c.client.get<ApiKeyList>('/api/v1.0/key?limit=100&offset=0', c.h)).body.data;
  const secret = (await c.client.get<{ secret: string }>('/api/v1.0/account/signing-secret', c.h)).body.data.secret;
  return { balance: details.balance, keys: keys.apiKeys.map((k) => k.apiKeyId).sort(), secret };
}

const signIn = (url: string, email: string, password: string) =>
  new Client(url).post('/auth/sign-in', { email, password }).then((a) => a.status);

describe('backups of the embedded database', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'ebs-backup-'));
    server = await startServerProcess({ DATA_DIR: dataDir, RPC_UPSTREAMS });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('takes a consistent copy while deposits are written: every balance equals the sum of its rows', {
    timeout: 60_000,
  }, async () => {
    if (!server) throw new Error('no server');
    const running = server;
    const owner = await customer(running.url);
    const accounts = [owner.accountId];
    for (const name of ['Second', 'Third']) {
      accounts.push((await owner.client.post<AccountSummary>('/api/v1.0/account', { accountName: name })).body.data.id);
    }
    // Each account gets deposits of 1, 2, 3 … USD, one after another, until the copy is taken.
    const written = accounts.map(() => 0);
    let writing = true;
    const writers = accounts.map(async (accountId, i) => {
      for (let n = 1; writing; n++) {
        await command(running, dataDir, ['deposit', '--account', accountId, '--amount', String(n), '--note', 'load']);
        written[i] = n;
      }
    });
    await expect.poll(() => Math.min(...written), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    const writtenBefore = written.reduce((a, b) => a + b, 0);
    const file = path.join(dataDir, '..', `${path.basename(dataDir)}-writes.ebsbackup`);
    const backup = await admin(dataDir, ['backup', '--out', file]);
    writing = false;
    await Promise.all(writers);
    expect(backup.code).toBe(0);

    const copy = await mkdtemp(path.join(tmpdir(), 'ebs-backup-copy-'));
    try {
      await runBackupCommand(loadConfig({ DATA_DIR: copy }), ['restore', '--from', file, '--yes']);
      const db = await openDatabase({ dataDir: copy });
      try {
        const { rows } = await sql<{ account_id: string; rows: number; sum: string; balance: string; gaps: number }>`
          select t.account_id, count(*)::int as rows, sum(t.amount)::text as sum, max(l.balance)::text as balance,
            (count(*) filter (where t.amount::int > (select count(*) from account_transactions x
              where x.account_id = t.account_id)))::int as gaps
          from account_transactions t join account_ledger_totals l using (account_id)
          where t.status = 'COMPLETED' group by t.account_id`.execute(db);
        const mismatches = rows.filter((r) => Number(r.sum) !== Number(r.balance) || r.gaps > 0).length;
        const inBackup = rows.filter((r) => accounts.includes(r.account_id)).reduce((sum, r) => sum + r.rows, 0);
        expect(mismatches).toBe(0);
        expect(inBackup).toBeGreaterThanOrEqual(writtenBefore);
        expect(inBackup).toBeLessThanOrEqual(written.reduce((a, b) => a + b, 0));
        reportFigures('backups during writes', {
          depositsWritten: written.reduce((a, b) => a + b, 0),
          depositsInBackup: inBackup,
          mismatches,
        });
      } finally {
        await db.destroy();
      }
    } finally {
      await rm(copy, { recursive: true, force: true });
      await rm(file, { force: true });
    }
  });

  it('restores exactly the state of the backup: balance, keys, sign-in and sealed secrets', {
    timeout: 120_000,
  }, async () => {
    if (!server) throw new Error('no server');
    const kept = await customer(server.url);
    await command(server, dataDir, ['deposit', '--account', kept.accountId, '--amount', '25.5', '--note', 'kept']);
    expect((await gateway(server.url, kept.key)).body.result).toBe('0x1');
    const before = await seen(kept);
    expect(before).toMatchObject({ balance: 25.5, keys: [kept.key.keyId] });

    const file = path.join(dataDir, '..', `${path.basename(dataDir)}.ebsbackup`);
    const backup = await admin(dataDir, ['backup', '--out', file, '--json']);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({
      file,
      takenBy: `server ${server.child.pid}`,
      secretsIncluded: true,
      format: 1,
    });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // The built server finds its own version as the sources do.
    const { version } = JSON.parse(await readFile(path.join(import.meta.dirname, '../../package.json'), 'utf8'));
    expect((await readBackup(file)).manifest.productVersion).toBe(version);

    const refused = await admin(dataDir, ['restore', '--from', file, '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Stop the server first');
    expect((await readdir(dataDir)).filter((name) => name.startsWith('before-restore'))).toEqual([]);

    // Changes after the backup, which the restore must undo.
    await command(server, dataDir, ['deposit', '--account', kept.accountId, '--amount', '100', '--note', 'later']);
    const laterKey = await kept.newKey('later key');
    const later = await customer(server.url);
    expect(await signIn(server.url, later.email, later.password)).toBe(200);
    await server.stop();
    server = undefined;

    const started = Date.now();
    const restored = await admin(dataDir, ['restore', '--from', file, '--yes', '--json']);
    const restoreSeconds = (Date.now() - started) / 1000;
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const result = JSON.parse(restored.stdout) as { rows: number; movedAside: string };
    expect(await readdir(result.movedAside)).toEqual(expect.arrayContaining(['pglite', 'secrets.json']));

    server = await startServerProcess({ DATA_DIR: dataDir, RPC_UPSTREAMS });
    kept.client = Object.assign(new Client(server.url), { idToken: kept.client.idToken });
    const after = await seen(kept);
    expect(after).toEqual(before);
    expect((await gateway(server.url, kept.key)).body.result).toBe('0x1');
    expect((await gateway(server.url, laterKey)).status).not.toBe(200);
    expect(await signIn(server.url, kept.email, kept.password)).toBe(200);
    expect(await signIn(server.url, later.email, later.password)).not.toBe(200);
    const mismatches = [
      after.balance !== before.balance,
      after.keys.join() !== before.keys.join(),
      after.secret !== before.secret,
    ].filter(Boolean).length;
    reportFigures('backups', { rowsBackedUp: result.rows, restoreSeconds: restoreSeconds.toFixed(1), mismatches });
  });
});

/** Every file under a folder with its size and time of change: equal listings mean nothing was touched. */
async function listing(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true });
  const lines = await Promise.all(
    names.map(async (name) => {
      const info = await stat(path.join(dir, name));
      return info.isDirectory() ? `${name}/` : `${name} ${info.size} ${info.mtimeMs}`;
    }),
  );
  return lines.sort();
}

describe('backup files that cannot be restored', () => {
  it('refuses a damaged, cut, foreign, newer or unloadable file and leaves the data directory as it was', {
    timeout: 60_000,
  }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'ebs-backup-refused-'));
    const files = path.join(dataDir, '..', `${path.basename(dataDir)}-files`);
    try {
      const config = loadConfig({ DATA_DIR: dataDir });
      const db = await openDatabase({ dataDir });
      await migrateToLatest(db);
      await db.destroy();
      await writeFile(path.join(dataDir, 'secrets.json'), '{"adminToken":"t"}', { mode: 0o600 });

      const good = `${files}.ebsbackup`;
      const taken = await runBackupCommand(config, ['backup', '--out', good]);
      expect(taken.json).toMatchObject({ takenBy: 'this command', secretsIncluded: true });
      const bytes = await readFile(good);
      const { manifest, secrets, database } = await readBackup(good);
      const newline = bytes.indexOf('\n');
      const variants: Array<[string, Buffer | (() => Promise<void>), string]> = [
        ['foreign', Buffer.from('name,amount\nalice,10\n'), 'is not a backup made by `admin backup`'],
        [
          'flipped',
          Buffer.concat([bytes.subarray(0, -10), Buffer.from([(bytes.at(-10) ?? 0) ^ 1]), bytes.subarray(-9)]),
          'is damaged or cut short',
        ],
        ['cut', bytes.subarray(0, bytes.length - 1000), 'is damaged or cut short'],
        [
          'newer format',
          Buffer.concat([
            Buffer.from(bytes.subarray(0, newline).toString().replace('"format":1', '"format":99')),
            bytes.subarray(newline),
          ]),
          'was made by a newer version',
        ],
        [
          'newer database',
          () =>
            writeBackup(
              `${files}-newer database`,
              { database, migration: '2099_01_01_0001_later' },
              secrets,
              manifest.productVersion,
            ).then(() => undefined),
          'newer than this version knows',
        ],
        [
          'unloadable',
          () =>
            writeBackup(
              `${files}-unloadable`,
              { database: Buffer.from('not a tarball'), migration: manifest.migration },
              secrets,
              manifest.productVersion,
            ).then(() => undefined),
          'nothing was changed',
        ],
      ];
      const before = await listing(dataDir);
      for (const [name, content, message] of variants) {
        const file = `${files}-${name}`;
        if (typeof content === 'function') await content();
        else await writeFile(file, content);
        await expect(runBackupCommand(config, ['restore', '--from', file, '--yes']), name).rejects.toThrow(message);
        expect(await listing(dataDir), name).toEqual(before);
        await rm(file);
      }

      await expect(runBackupCommand(config, ['restore', '--from', good])).rejects.toThrow('Add --yes');
      expect(await listing(dataDir)).toEqual(before);
      const restored = await runBackupCommand(config, ['restore', '--from', good, '--yes']);
      expect(restored.json).toMatchObject({ secretsRestored: true, migration: manifest.migration });
      await rm(good);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('points to pg_dump and pg_restore on PostgreSQL instead of pretending', async () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://backup@127.0.0.1:1/none' });
    await expect(runBackupCommand(config, ['backup'])).rejects.toThrow('pg_dump --format=custom');
    await expect(runBackupCommand(config, ['restore', '--from', 'x.dump'])).rejects.toThrow('pg_restore --no-owner');
  });
});
