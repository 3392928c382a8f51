import { ChargeReceiptParams, ConfirmSetupIntentBody, SetupIntentChallengeBody, SetupIntentParams } from '../cards.ts';
import { endpoint } from '../endpoint.ts';

const processorCall = { access: 'public', tag: 'card processor' } as const;

/**
 * The built-in local card processor's own endpoints, called by the card-entry component in the
 * browser (never by the console API), where a hosted provider's would stand. Anyone may call them:
 * a setup intent's client secret or a charge's random id is what they check. They answer the
 * processor's own objects or an HTML page, not the success wrapper, so none has a `response`.
 */
export const processorEndpoints = {
  confirmSetupIntent: endpoint({
    ...processorCall,
    method: 'POST',
    path: '/processor/v1/setup_intents/:id/confirm',
    params: SetupIntentParams,
    body: ConfirmSetupIntentBody,
  }),
  /** The card holder's answer to the processor's confirmation challenge. */
  completeChallenge: endpoint({
    ...processorCall,
    method: 'POST',
    path: '/processor/v1/setup_intents/:id/challenge',
    params: SetupIntentParams,
    body: SetupIntentChallengeBody,
  }),
  /** A succeeded charge's receipt, as an HTML page. */
  receipt: endpoint({
    ...processorCall,
    method: 'GET',
    path: '/processor/v1/receipts/:chargeId',
    params: ChargeReceiptParams,
  }),
};
