import { badRequest, CardEventMessages, endpoints } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Stripe from 'stripe';
import { ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import type { StripeEvents } from './stripe-events.service.ts';

/**
 * Stripe's webhook endpoint: public, since Stripe signs instead of signing in. The body is kept as
 * the text that was signed (this plugin's own parser; every other route parses JSON), and nothing is
 * read from it before its signature is checked.
 */
export const stripeWebhookRoutes: FastifyPluginAsyncTypebox<{ events: StripeEvents }> = async (app, { events }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  route(app, endpoints.cards.stripeWebhook, {}, async (req) => {
    if (typeof req.body !== 'string' || req.body === '') throw badRequest(CardEventMessages.bodyRequired);
    let event: Stripe.Event;
    try {
      event = await events.verify(req.body, req.headers['stripe-signature']);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
        throw badRequest(CardEventMessages.signatureRefused);
      }
      throw error;
    }
    await events.take(event);
    return ok({ received: true as const });
  });
};
