import { AppError, endpoints } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { RateLimiter } from '../../http/rate-limit.ts';
import { addressKey, enforce } from '../../http/rate-limit.ts';
import { route } from '../../http/route.ts';
import { type LocalCardProcessor, ProcessorError } from './local-processor.ts';
import { findCharge } from './processor.store.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A processor error reaches the browser as the processor's own message. */
async function asCardError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProcessorError) throw new AppError(error.code, error.message);
    throw error;
  }
}

/** What processorRoutes is built from (the composition root hands it in). */
export interface ProcessorRoutesOptions {
  processor: LocalCardProcessor;
  limiter: RateLimiter;
  config: Config;
  db: Db;
}

/**
 * The local card processor's own endpoints, called by the card-entry component in the browser
 * (never by the console API): they stand where a hosted provider's would.
 */
export const processorRoutes: FastifyPluginAsyncTypebox<ProcessorRoutesOptions> = async (
  app,
  { processor, limiter, config, db },
) => {
  const { confirmSetupIntent, completeChallenge, receipt } = endpoints.processor;

  route(app, confirmSetupIntent, {}, async (req) => {
    await enforce(limiter, [[`processor:ip:${addressKey(req.ip)}`, { limit: 30, windowSeconds: 60 }]]);
    return asCardError(() => processor.confirmSetupIntent(req.params.id, req.body.client_secret, req.body.card));
  });

  route(app, completeChallenge, {}, async (req) =>
    asCardError(() => processor.completeChallenge(req.params.id, req.body.client_secret, req.body.approve)),
  );

  route(app, receipt, {}, async (req, reply) => {
    const charge = await findCharge(db, req.params.chargeId);
    if (charge?.status !== 'SUCCEEDED') throw new AppError('Not Found', 'No such receipt.');
    const amount = Number(charge.amount).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
    const rows = [
      ['Amount paid', amount],
      ['Date paid', charge.created_at.toISOString().replace('T', ' ').slice(0, 19)],
      ['Payment method', `${charge.brand} •••• ${charge.last4}`],
      ['Description', charge.description],
      ['Receipt number', charge.id],
    ];
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Receipt ${escapeHtml(charge.id)}</title></head>` +
          `<body><h1>Receipt from ${escapeHtml(config.PRODUCT_NAME)}</h1><dl>${rows
            .map(([k, v]) => `<dt>${escapeHtml(k ?? '')}</dt><dd>${escapeHtml(v ?? '')}</dd>`)
            .join('')}</dl></body></html>`,
      );
  });
};
