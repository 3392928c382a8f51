import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../testing/databases.ts';
import { logSink } from '../testing/log-sink.ts';
import { serverFor } from '../testing/server.ts';
import { writeWebDist } from '../testing/web-dist.ts';

describe('serving the web app', () => {
  const dist = writeWebDist('ebs-web-');
  const server = serverFor(testDatabases[0]!, { WEB_DIST: dist });
  afterAll(() => rm(dist, { recursive: true, force: true }));

  const get = (url: string) => fetch(server().url + url);

  it.each(['/', '/accounts', '/account/3f2b/overview', '/no/such/page'])(
    'answers %s with index.html, never cached',
    async (url) => {
      const response = await get(url);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<title>console</title>');
      expect(response.headers.get('cache-control')).toBe('no-cache');
    },
  );

  it('caches hashed assets for a year', async () => {
    const response = await get('/assets/app-abc123.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('sends the Brotli copy the build wrote to a browser that accepts it, the plain file to others', async () => {
    const compressed = await fetch(`${server().url}/assets/app-abc123.js`, { headers: { 'accept-encoding': 'br' } });
    expect(compressed.headers.get('content-encoding')).toBe('br');
    expect(compressed.headers.get('content-type')).toMatch(/javascript/);
    expect(compressed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await compressed.text()).toBe('console.log(1)');
    const raw = await fetch(`${server().url}/assets/app-abc123.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(raw.headers.get('content-encoding')).toBeNull();
    expect(await raw.text()).toBe('console.log(1)');
  });

  it('serves an asset written after start (a rebuild needs no restart)', async () => {
    await writeFile(path.join(dist, 'assets', 'later-def456.js'), 'console.log(2)');
    expect((await get('/assets/later-def456.js')).status).toBe(200);
  });

  it.each(['/api/v1.0/nope', '/auth/nope', '/assets/missing.js'])('answers %s with a JSON 404', async (url) => {
    const response = await get(url);
    expect(response.status).toBe(404);
    expect((await response.json()).error).toBe('Not Found');
  });
});

describe('a console opened at another address than PUBLIC_URL', () => {
  const dist = writeWebDist('ebs-web-origin-');
  const { lines, stream } = logSink();
  // Behind one proxy, as in production: the address people typed arrives as X-Forwarded-Host.
  const server = serverFor(testDatabases[0]!, { WEB_DIST: dist, TRUST_PROXY: '1' }, stream);
  afterAll(() => rm(dist, { recursive: true, force: true }));

  const warnings = () => lines.filter((line) => line.includes('but PUBLIC_URL is http://localhost:8080'));
  const page = (url: string, host?: string) =>
    fetch(server().url + url, { headers: host ? { 'x-forwarded-host': host } : {} });

  it('logs one clear warning at the first page opened elsewhere, and none for its own address, files or the API', async () => {
    expect((await page('/accounts', 'localhost:8080')).status).toBe(200);
    expect((await page('/assets/app-abc123.js', 'elsewhere.example:8080')).status).toBe(200);
    expect((await page('/api/v1.0/no-such-route', 'elsewhere.example:8080')).status).toBe(404);
    expect(warnings()).toEqual([]);

    expect((await page('/accounts', 'elsewhere.example:8080')).status).toBe(200);
    expect((await page('/', '127.0.0.1:9999')).status).toBe(200);
    expect(warnings()).toHaveLength(1);
    const warning = JSON.parse(warnings()[0] as string) as { level: number; msg: string };
    expect(warning.level).toBe(40);
    expect(warning.msg).toBe(
      'The console was opened at http://elsewhere.example:8080, but PUBLIC_URL is http://localhost:8080: links in e-mails and receipts and the RPC URLs shown to users point there. Set PUBLIC_URL to the address people use.',
    );
  });
});
