import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * Serves e2e/dapp/dapp.ts, bundled with viem for the browser, as a page of its own on a free port:
 * `http://localhost:{port}/` and `http://127.0.0.1:{port}/` are two origins of one page.
 */
export async function serveDapp(): Promise<{ port: number; close(): Promise<void> }> {
  const bundle = await build({
    entryPoints: [path.join(import.meta.dirname, 'dapp.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    minify: true,
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  const page = `<!doctype html><html><head><title>Dapp</title></head><body><h1>Dapp</h1><pre id="answer"></pre><script>${script}</script></body></html>`;
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page);
  });
  // Every local address: localhost may resolve to ::1 or to 127.0.0.1.
  await new Promise<void>((resolve) => server.listen(0, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
