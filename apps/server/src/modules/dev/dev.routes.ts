import { AppError, endpoints, normalizeEmail } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Config } from '../../config.ts';
import { analyticsScriptUrl, isProduction } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { fromLoopbackSocket } from '../../http/loopback.ts';
import { ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import { readOutbox } from '../../mail/mailer.ts';
import { publicProviders } from '../identity/index.ts';

/** Headers a proxy or tunnel adds: a plain nginx `proxy_pass` sends none of X-Forwarded-For, but may send these. */
const PROXY_HEADERS = [
  'x-forwarded-for',
  'forwarded',
  'via',
  'x-forwarded-proto',
  'x-forwarded-host',
  'x-real-ip',
  'true-client-ip',
  'x-client-ip',
  'x-original-forwarded-for',
  'cf-connecting-ip',
];

/** A Host header naming this machine: localhost (or a name under it), 127.x.x.x or [::1], with any port. */
const LOOPBACK_HOST =
  /^(?:localhost|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** What devRoutes is built from (the composition root hands it in). */
export interface DevRoutesOptions {
  db: Db;
  config: Config;
}

/** Public configuration for the web app, and outside production the dev outbox (ARCHITECTURE §3). */
export const devRoutes: FastifyPluginAsyncTypebox<DevRoutesOptions> = async (app, { db, config }) => {
  const { system } = endpoints;

  route(app, system.config, {}, async () =>
    ok({
      appEnv: config.APP_ENV,
      docsUrl: config.DOCS_URL,
      apiBase: config.PUBLIC_URL,
      productName: config.PRODUCT_NAME,
      thirdPartyProviders: publicProviders(config),
      cardProvider: config.CARD_PROVIDER,
      ...(config.CARD_PROVIDER === 'stripe' ? { stripePublishableKey: config.STRIPE_PUBLISHABLE_KEY } : {}),
      analyticsScriptUrl: analyticsScriptUrl(config),
    }),
  );

  route(app, system.health, {}, async () => {
    try {
      await sql`select 1`.execute(db);
    } catch {
      throw new AppError('Service Unavailable', 'The database cannot be reached.');
    }
    return ok({ status: 'ok' as const });
  });

  if (isProduction(config)) return;
  // The outbox holds every code the server mailed: whoever reads it can reset any password. Only
  // this machine's own sockets see it, as if it were not there for anyone else.
  // A proxy or tunnel on this machine (nginx, ngrok) connects from loopback for everyone: a request
  // it forwarded says so in its headers, or names the public host it was sent to, and is refused too.
  const onRequest = async (req: FastifyRequest, reply: FastifyReply) => {
    const forwarded = PROXY_HEADERS.some((name) => req.headers[name] !== undefined);
    if (!fromLoopbackSocket(req) || forwarded || !LOOPBACK_HOST.test(req.headers.host ?? '')) {
      return reply.callNotFound();
    }
  };

  route(app, system.mailbox, { onRequest }, async (req) =>
    readOutbox(db, req.query.to ? normalizeEmail(req.query.to) : undefined),
  );

  route(app, system.mailboxPage, { onRequest }, async (req, reply) => {
    const mails = await readOutbox(db, req.query.to ? normalizeEmail(req.query.to) : undefined);
    const rows = mails
      .map(
        (m) =>
          `<article><h2>${escapeHtml(m.subject)}</h2><p><b>To:</b> ${escapeHtml(m.to)} · ${escapeHtml(m.createdAt)}</p><pre>${escapeHtml(m.text)}</pre></article>`,
      )
      .join('');
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev mailbox</title></head><body><h1>Dev mailbox</h1>${rows || '<p>No mail yet.</p>'}</body></html>`,
      );
  });
};
