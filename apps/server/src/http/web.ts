import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const API_PREFIXES = ['/api/', '/auth/', '/dev/', '/admin/', '/processor/'];

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached, and
 * index.html for any other GET so client routes survive a reload. API paths answer JSON 404.
 */
export async function registerWeb(app: FastifyInstance, webDist: string): Promise<void> {
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
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
