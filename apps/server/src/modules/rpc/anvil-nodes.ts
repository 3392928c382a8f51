import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import type { RpcNetwork } from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';

const require = createRequire(import.meta.url);

/** The Anvil binary of this platform, from npm's @foundry-rs/anvil-<platform> package. */
export function anvilBinary(): string {
  const platform = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[process.platform as string];
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string];
  if (!platform || !arch) throw new Error(`Anvil has no build for ${process.platform} ${process.arch}`);
  const manifest = require.resolve(`@foundry-rs/anvil-${platform}-${arch}/package.json`);
  return path.join(path.dirname(manifest), 'bin', platform === 'win32' ? 'anvil.exe' : 'anvil');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitUntilAnswering(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`anvil stopped at start (exit code ${child.exitCode})`);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('anvil did not start in time');
}

/**
 * The embedded default's chains: one local Anvil node per EVM network, with that network's chain
 * id, started on first use and stopped with the server. Each keeps its state in
 * DATA_DIR/chains/<network>.json, so balances and transactions survive a restart.
 */
export class AnvilNodes {
  private readonly started = new Map<string, Promise<{ url: string; child: ChildProcess }>>();

  constructor(
    private readonly dataDir: string | undefined,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The node's URL, starting it when this is the network's first use. */
  async urlFor(network: RpcNetwork): Promise<string> {
    let node = this.started.get(network.path);
    if (!node) {
      node = this.start(network);
      this.started.set(network.path, node);
      node.catch(() => this.started.delete(network.path));
    }
    return (await node).url;
  }

  /** The node's URL if it has been started, without starting it. */
  async runningUrl(path: string): Promise<string | undefined> {
    return (await this.started.get(path))?.url;
  }

  private async start(network: RpcNetwork) {
    const port = await freePort();
    const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(network.chainId)];
    if (this.dataDir) {
      const dir = path.join(this.dataDir, 'chains');
      await mkdir(dir, { recursive: true });
      args.push('--state', path.join(dir, `${network.path.replace('/', '-')}.json`));
    }
    const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    child.once('exit', (code, signal) => {
      this.started.delete(network.path);
      if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGINT') {
        this.log.warn({ network: network.path, code, signal, stderr }, 'local chain node stopped');
      }
    });
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitUntilAnswering(url, child, 30_000);
    } catch (error) {
      child.kill('SIGKILL');
      throw new Error(`${network.name} local node: ${(error as Error).message}${stderr ? `: ${stderr.trim()}` : ''}`);
    }
    this.log.info({ network: network.path, chainId: network.chainId, url }, 'local chain node started');
    return { url, child };
  }

  /** Stops every node (SIGTERM lets Anvil write its state), waiting at most a few seconds each. */
  async stopAll(): Promise<void> {
    const nodes = await Promise.allSettled(this.started.values());
    this.started.clear();
    await Promise.all(
      nodes.map(async (result) => {
        if (result.status !== 'fulfilled') return;
        const { child } = result.value;
        if (child.exitCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }),
    );
  }
}
