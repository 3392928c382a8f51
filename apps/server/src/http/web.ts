import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const API_PREFIXES = ['/api/', '/auth/', '/dev/', '/admin/', '/processor/'];

/** A GET of one of the console's pages (a client route or the root), not of a file or an API. */
const isPageRequest = (request: FastifyRequest) => {
  // The method first: a POST or any other non-GET goes no further.
  if (request.method !== 'GET') return false;
  const url = request.url.split('?')[0] ?? '/';
  return !API_PREFIXES.some((p) => url.startsWith(p)) && !path.extname(url);
};

/**
 * Links in mail, receipts and the RPC URLs people copy are built from PUBLIC_URL. The first time a
 * page is opened at another origin, the log says so once: those links may point at nothing there.
 */
function warnOnceAtOtherOrigin(app: FastifyInstance, publicUrl: string): void {
  const expected = new URL(publicUrl).origin;
  let warned = false;
  app.addHook('onRequest', async (request) => {
    if (warned || !isPageRequest(request)) return;
    const origin = `${request.protocol}://${request.host}`;
    if (origin === expected) return;
    warned = true;
    request.log.warn(
      { origin, publicUrl: expected },
      `The console was opened at ${origin}, but PUBLIC_URL is ${expected}: links in e-mails and receipts and the RPC URLs shown to users point there. Set PUBLIC_URL to the address people use.`,
    );
  });
}

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached, and
 * index.html for any other GET so client routes survive a reload. API paths answer JSON 404.
 */
export async function registerWeb(app: FastifyInstance, webDist: string, publicUrl: string): Promise<void> {
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    warnOnceAtOtherOrigin(app, publicUrl);
    await app.register(fastifyStatic, {
      root: webDist,
      // Looked up per request (not listed at start), so a rebuilt web app is served without a restart.
      wildcard: true,
      index: 'index.html',
      // The build writes .br and .gz copies beside each file (apps/web/vite.config.ts): sent to
      // browsers that accept them, about a third of the bytes, without compressing per request.
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, file) {
        res.setHeader(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((p) => url.startsWith(p));
    if (hasWeb && !isApi && (request.method === 'GET' || request.method === 'HEAD') && !path.extname(url)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply
      .status(404)
      .send({ statusCode: 404, message: `Route ${request.method} ${url} not found`, error: 'Not Found' });
  });
}
