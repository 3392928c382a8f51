import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Tests name what they test once (README, "tests"): `<file>[.<topic>][.<kind>].test.ts`. The kind
 * says what a test proves and comes last; where a test runs (Anvil, Redis, a running gateway, a
 * client library, a database) is its setup, not its name.
 */
const root = path.resolve(import.meta.dirname, '../..');
const KINDS = ['security', 'error', 'crash', 'concurrency', 'property', 'migration', 'load'];
const PLACES = ['anvil', 'redis', 'gateway', 'client', 'pglite', 'postgres', 'node', 'browser'];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : testFiles(full);
    return /\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** What is wrong with a test file's name, if anything. */
function nameFault(file: string): string | undefined {
  const segments = path
    .basename(file)
    .replace(/\.test\.tsx?$/, '')
    .split('.')
    .slice(1);
  const place = segments.find((segment) => PLACES.includes(segment));
  if (place) return `names where it runs (.${place}); name what it tests or proves`;
  const kind = segments.findIndex((segment) => KINDS.includes(segment));
  if (kind !== -1 && kind !== segments.length - 1) return `its kind (.${segments[kind]}) must come last`;
  return undefined;
}

describe('test names', () => {
  it('every test file names what it tests, then what it proves, never where it runs', () => {
    const faults = ['apps', 'packages', 'scripts']
      .flatMap((dir) => testFiles(path.join(root, dir)))
      .flatMap((file) => {
        const fault = nameFault(file);
        return fault ? [`${path.relative(root, file)}: ${fault}`] : [];
      });
    expect(faults, faults.join('\n')).toEqual([]);
  });

  it('finds a name by place and a kind out of order', () => {
    expect(nameFault('a/rpc.gateway.test.ts')).toBe('names where it runs (.gateway); name what it tests or proves');
    expect(nameFault('a/identity.security.lockout.test.ts')).toBe('its kind (.security) must come last');
    expect(nameFault('a/identity.lockout.security.test.ts')).toBeUndefined();
    expect(nameFault('a/rpc-ws.test.ts')).toBeUndefined();
  });
});
