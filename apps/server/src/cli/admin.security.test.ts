import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { loadSecrets } from '../secrets.ts';
import { reportFigures } from '../testing/report.ts';
import { serverCommand } from '../testing/server-command.ts';

const { DATABASE_URL: _postgres, ...baseEnv } = process.env;

describe('the admin command line on the embedded database', () => {
  let dataDir: string;
  const seen: IncomingHttpHeaders[] = [];
  // Another program on the port PORT names: it must never be handed the admin token.
  const listener = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ text: 'taken over', json: {} }));
  });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'ebs-admin-'));
    await loadSecrets(loadConfig({ DATA_DIR: dataDir }));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    await rm(dataDir, { recursive: true, force: true });
  });

  it('never sends its token to a port no running server recorded', async () => {
    const port = String((listener.address() as AddressInfo).port);
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [...serverCommand('admin'), 'accounts', 'list', '--json'],
        { env: { ...baseEnv, NODE_ENV: 'test', DATA_DIR: dataDir, PORT: port, LOG_LEVEL: 'warn' }, timeout: 60_000 },
        (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: out, stderr: err }),
      ),
    );
    expect(stderr).not.toContain('taken over');
    expect(code).toBe(0);
    // With no server recorded the command opened the data directory itself.
    expect(JSON.parse(stdout)).toEqual([]);
    const { adminToken } = JSON.parse(await readFile(path.join(dataDir, 'secrets.json'), 'utf8'));
    expect(seen.filter((headers) => Object.values(headers).includes(adminToken))).toEqual([]);
    expect(seen).toEqual([]);
    reportFigures('admin token only to the recorded server', { requestsToUnrecordedPort: seen.length });
  });
});
