import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';

/**
 * A built web app of two files (index.html and one hashed asset, with its Brotli copy), in a temp
 * folder: written at once, so a describe block can hand it to serverFor as WEB_DIST.
 */
export function writeWebDist(prefix: string): string {
  const dist = mkdtempSync(path.join(tmpdir(), prefix));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js.br'), brotliCompressSync('console.log(1)'));
  return dist;
}
