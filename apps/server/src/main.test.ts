import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const main = path.join(import.meta.dirname, 'main.ts');

function run(env: Record<string, string>): { child: ChildProcess; output: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, LOG_LEVEL: 'warn', WEB_DIST: '/nonexistent', ...env },
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  return { child, output: () => output, exit: new Promise((resolve) => child.on('exit', resolve)) };
}

describe('the server process', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'ebs-main-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('refuses a bad setting with one clear line and exit code 1', async () => {
    const { output, exit } = run({ DATA_DIR: dataDir, PORT: 'eighty' });
    expect(await exit).toBe(1);
    expect(output().trim()).toBe('Invalid configuration: PORT expected integer (got "eighty")');
  });

  it('starts on the embedded default, prints its URL, and stops cleanly on SIGTERM', async () => {
    const { child, output, exit } = run({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' });
    const deadline = Date.now() + 30_000;
    let url: string | undefined;
    while (!url && Date.now() < deadline) {
      url = output().match(/running at (http:\/\/localhost:\d+)/)?.[1];
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(url).toBeDefined();
    const config = await fetch(`${url?.replace('localhost', '127.0.0.1')}/api/v1.0/config`);
    expect((await config.json()).data.appEnv).toBe('dev');
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });
});
