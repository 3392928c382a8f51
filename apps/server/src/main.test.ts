import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productionEnv } from './testing/production-env.ts';
import { serverCommand } from './testing/server-command.ts';

function run(env: Record<string, string>): { child: ChildProcess; output: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, serverCommand('main'), {
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

  it('refuses a production start on the local card processor or test-mode Stripe keys with one line naming the variable', async () => {
    const local = productionEnv({ DATA_DIR: dataDir, CARD_PROVIDER: 'local' });
    delete local.STRIPE_SECRET_KEY;
    delete local.STRIPE_PUBLISHABLE_KEY;
    const testKeys = productionEnv({
      DATA_DIR: dataDir,
      STRIPE_SECRET_KEY: 'sk_test_51Hc0nsoleTestKey',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_51Hc0nsoleTestKey',
    });
    for (const [env, variable] of [
      [local, 'CARD_PROVIDER'],
      [testKeys, 'STRIPE_SECRET_KEY'],
    ] as const) {
      const { output, exit } = run(env);
      expect(await exit).toBe(1);
      const lines = output().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^Invalid configuration: ${variable} `));
      expect(output()).not.toContain('c0nsoleTestKey');
    }
  });

  it('starts on the embedded default, prints its URL, and stops cleanly on SIGTERM', async () => {
    const { child, output, exit } = run({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' });
    // A first start migrates a fresh embedded database: tens of seconds on a busy two-core machine.
    const deadline = Date.now() + 80_000;
    let url: string | undefined;
    while (!url && Date.now() < deadline) {
      url = output().match(/running at (http:\/\/localhost:\d+)/)?.[1];
      await new Promise((r) => setTimeout(r, 100));
    }
    if (!url) child.kill('SIGKILL');
    expect(url, output()).toBeDefined();
    const config = await fetch(`${url?.replace('localhost', '127.0.0.1')}/api/v1.0/config`);
    expect((await config.json()).data.appEnv).toBe('dev');
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  }, 90_000);
});
