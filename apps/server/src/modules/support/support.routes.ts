import { endpoints, Messages } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { requireAccount, requireCaller } from '../../http/guards.ts';
import { ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import type { SupportService } from './support.service.ts';
import { checkContactMessage } from './support.service.ts';

/**
 * Runs before the schema: a missing message would otherwise get the schema's wording, and a
 * number would be coerced to text and pass.
 */
async function contactMessageRule(request: FastifyRequest): Promise<void> {
  const body = request.body;
  checkContactMessage(body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined);
}

/** What supportRoutes is built from (the composition root hands it in). */
export interface SupportRoutesOptions {
  support: SupportService;
}

/** The Contact Us call of spec A §7 Support. */
export const supportRoutes: FastifyPluginAsyncTypebox<SupportRoutesOptions> = async (app, { support }) => {
  route(app, endpoints.support.contact, { preValidation: contactMessageRule }, async (req) => {
    const ticket = await support.submit({
      accountId: requireAccount(req).id,
      userId: requireCaller(req).userId,
      message: req.body.message,
    });
    return ok(ticket, Messages.contactReceived);
  });
};
