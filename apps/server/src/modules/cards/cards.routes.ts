import { AccountHeaders, PaymentCardList } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.ts';
import { ok, responses } from '../../http/reply.ts';

/**
 * The card list of an account. Cards are attached by the card processor (issue 3); until it
 * exists no account can hold a card, so the list is empty for everyone.
 */
export const cardRoutes: FastifyPluginAsyncTypebox<Deps> = async (app) => {
  app.get(
    '/api/v1.0/payment/card',
    {
      config: { accountScoped: true },
      schema: { tags: ['cards'], headers: AccountHeaders, response: responses(PaymentCardList) },
    },
    async () => ok([]),
  );
};
