import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Endpoints live in one table (packages/contract/src/endpoints/): the server registers from it and
 * the web calls through it, so no product file of either writes an endpoint's path by hand. Tests,
 * journeys and benchmarks keep literal URLs: they call the API as an outside client does.
 */
const root = path.resolve(import.meta.dirname, '../..');
const products = ['apps/server/src', 'apps/web/src'].map((dir) => path.join(root, dir));
const ENDPOINT_PATH = /['"`]\/(?:api\/v1\.0\/[A-Za-z]|auth\/[a-z]|processor\/[a-z]|dev\/[a-z]|admin\/[a-z])/;
/** Not an endpoint: the scope of a cookie that both third-party sign-in routes must receive. */
const ALLOWED = ["const FLOW_COOKIE_PATH = '/auth/third-party';"];

const isTest = (name: string) => /\.test\.tsx?$|test-kit|\.d\.ts$/.test(name);

function productFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : productFiles(full);
    return /\.tsx?$/.test(entry.name) && !isTest(entry.name) ? [full] : [];
  });
}

describe('endpoint paths', () => {
  it('no product file of the server or the web writes an endpoint path outside the contract table', () => {
    const written = products.flatMap(productFiles).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line: line.trim(), at: `${path.relative(root, file)}:${i + 1}` }))
        .filter(({ line }) => ENDPOINT_PATH.test(line) && !line.startsWith('//') && !line.startsWith('*'))
        .filter(({ line }) => !ALLOWED.includes(line))
        .map(({ line, at }) => `${at}: ${line}`),
    );
    expect(written, written.join('\n')).toEqual([]);
  });
});
