import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import type { RpcNetwork } from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import { installMulticall3 } from './multicall3.ts';

const require = createRequire(import.meta.url);

/** The Anvil binary of this platform, from npm's @foundry-rs/anvil-<platform> package. */
export function anvilBinary(): string {
  const platform = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[process.platform as string];
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string];
  if (!platform || !arch) throw new Error(`Anvil has no build for ${process.platform} ${process.arch}`);
  const manifest = require.resolve(`@foundry-rs/anvil-${platform}-${arch}/package.json`);
  return path.join(path.dirname(manifest), 'bin', platform === 'win32' ? 'anvil.exe' : 'anvil');
}

export async function freePort(): Promise<number> {
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

export interface AnvilNode {
  url: string;
  child: ChildProcess;
  /** The end of what the node wrote to standard error. */
  stderr(): string;
}

/**
 * Starts an Anvil node with a chain id on a free local port (keeping its state in `statePath`
 * when given) and answers once it serves JSON-RPC, with Multicall3 at its address as on real
 * networks. Used by the embedded default and by tests.
 * The port is free when chosen but may be taken before Anvil binds it (another process's outgoing
 * connection can get it): then it tries another port, a few times.
 */
export async function spawnAnvil(chainId: number, statePath?: string, port?: number): Promise<AnvilNode> {
  // A node restarted on its own port (a test of what survives a node's restart) gets one try.
  if (port !== undefined) return spawnOnPort(chainId, statePath, port);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await spawnOnFreePort(chainId, statePath);
    } catch (error) {
      if (attempt >= PORT_ATTEMPTS || !/address already in use/i.test((error as Error).message)) throw error;
    }
  }
}

const PORT_ATTEMPTS = 5;

async function spawnOnFreePort(chainId: number, statePath?: string): Promise<AnvilNode> {
  return spawnOnPort(chainId, statePath, await freePort());
}

async function spawnOnPort(chainId: number, statePath: string | undefined, port: number): Promise<AnvilNode> {
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId)];
  if (statePath) args.push('--state', statePath);
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(url, child, 30_000);
    await installMulticall3(url);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}${stderr ? `: ${stderr.trim()}` : ''}`);
  }
  return { url, child, stderr: () => stderr };
}

/** One JSON-RPC call to a node: its result, or its error thrown. */
export async function nodeCall(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

/**
 * Anvil's development accounts hold coins under keys the whole world knows: on a node that every
 * customer reaches, anyone could sign with them and fake a deposit into another's wallet. The
 * embedded default empties them (at every start, as a node's saved state may hold them funded);
 * test coins come from the operator's faucet instead.
 */
async function emptyDevAccounts(url: string): Promise<void> {
  const accounts = (await nodeCall(url, 'eth_accounts', [])) as string[];
  await Promise.all(accounts.map((account) => nodeCall(url, 'anvil_setBalance', [account, '0x0'])));
}

/** Stops a node (SIGTERM lets Anvil write its state), forcing it after a few seconds. */
export async function stopAnvil(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * The embedded default's chains: one local Anvil node per EVM network, with that network's chain
 * id, started on first use and stopped with the server. Each keeps its state in
 * DATA_DIR/chains/<network>.json, so balances and transactions survive a restart.
 */
export class AnvilNodes {
  private readonly started = new Map<string, Promise<AnvilNode>>();

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
    let statePath: string | undefined;
    if (this.dataDir) {
      const dir = path.join(this.dataDir, 'chains');
      await mkdir(dir, { recursive: true });
      statePath = path.join(dir, `${network.path.replace('/', '-')}.json`);
    }
    const node = await spawnAnvil(network.chainId, statePath)
      .then(async (started) => {
        await emptyDevAccounts(started.url).catch(async (error: Error) => {
          await stopAnvil(started.child);
          throw error;
        });
        return started;
      })
      .catch((error: Error) => {
        throw new Error(`${network.name} local node: ${error.message}`);
      });
    node.child.once('exit', (code, signal) => {
      this.started.delete(network.path);
      if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGINT') {
        this.log.warn({ network: network.path, code, signal, stderr: node.stderr() }, 'local chain node stopped');
      }
    });
    this.log.info({ network: network.path, chainId: network.chainId, url: node.url }, 'local chain node started');
    return node;
  }

  /** Stops every node, each given a few seconds to write its state. */
  async stopAll(): Promise<void> {
    const nodes = await Promise.allSettled(this.started.values());
    this.started.clear();
    await Promise.all(
      nodes.map((result) => (result.status === 'fulfilled' ? stopAnvil(result.value.child) : undefined)),
    );
  }
}
