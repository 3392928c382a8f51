import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../../apps/server/src/testing/anvil.ts';
import type { Cleanup } from './stack.ts';

/** BENCH_NGINX names the binary (or `off`); otherwise nginx on PATH or in /usr/sbin, when installed. */
export function nginxBinary(): string | undefined {
  const configured = process.env.BENCH_NGINX;
  if (configured === 'off') return undefined;
  if (configured) return configured;
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin'].filter(Boolean);
  return dirs.map((dir) => path.join(dir, 'nginx')).find((file) => existsSync(file));
}

/**
 * nginx as nginxBinary() finds it; where it is missing, Debian's package is installed when this runs
 * as root with apt-get (as CI does). Undefined when BENCH_NGINX=off or it cannot be installed.
 */
export function ensureNginx(log: (line: string) => void): string | undefined {
  if (process.env.BENCH_NGINX === 'off') return undefined;
  const found = nginxBinary();
  if (found) return found;
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version']).status !== 0) return undefined;
  log("nginx is missing: installing Debian's nginx");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('apt-get', ['install', '-y', '-qq', 'nginx'], { env, stdio: 'ignore' }).status === 0;
  if (!install()) {
    spawnSync('apt-get', ['update', '-qq'], { env, stdio: 'ignore' });
    if (!install()) return undefined;
  }
  return nginxBinary();
}

/**
 * A reference proxy: one nginx worker (the gateway is one Node process) passing every request to
 * the same upstream node over kept-alive connections, with no key check and no metering.
 */
export async function nginxProxy(
  cleanup: Cleanup,
  binary: string,
  dir: string,
  upstream: string,
): Promise<{ url: string; pid: number | undefined }> {
  const prefix = path.join(dir, `nginx-${new URL(upstream).port}`);
  await mkdir(prefix, { recursive: true });
  const port = await freePort();
  const { host } = new URL(upstream);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((name) => `  ${name}_temp_path ${path.join(prefix, name)};`)
    .join('\n');
  const conf = `daemon off;
master_process off;
worker_processes 1;
pid ${path.join(prefix, 'nginx.pid')};
error_log ${path.join(prefix, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
${temp}
  upstream node { server ${host}; keepalive 64; keepalive_requests 1000000000; }
  server {
    listen 127.0.0.1:${port};
    # nginx closes a kept-alive connection after 1000 requests by default; autocannon then pairs
    # answers with the wrong requests and reports about twice the real latency.
    keepalive_requests 1000000000;
    location / {
      proxy_pass http://node;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
`;
  const file = path.join(prefix, 'nginx.conf');
  await writeFile(file, conf);
  const child = spawn(binary, ['-p', prefix, '-e', path.join(prefix, 'error.log'), '-c', file], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  await spawned;
  cleanup.add(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  );
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) break;
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
    }).catch(() => undefined);
    if (answer?.ok) return { url, pid: child.pid };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx did not start: ${stderr.trim() || `exit code ${child.exitCode}`}`);
}
