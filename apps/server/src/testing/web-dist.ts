import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';

/** A built web app of two files (index.html and one hashed asset, with its Brotli copy), in a temp folder. */
export async function writeWebDist(prefix: string): Promise<string> {
  const dist = await mkdtemp(path.join(tmpdir(), prefix));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>console</title>');
  await writeFile(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  await writeFile(path.join(dist, 'assets', 'app-abc123.js.br'), brotliCompressSync('console.log(1)'));
  return dist;
}
