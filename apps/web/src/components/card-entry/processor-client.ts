import { type EndpointBody, endpointPath, endpoints, Messages, type SetupIntent } from '@ebs/contract';
import type { ProcessorCard } from './card-input';

/** The processor's answer about a setup intent. */
export interface SetupIntentState {
  id: string;
  status: 'succeeded' | 'requires_action';
  payment_method: string;
  next_action?: { type: 'challenge' };
}

/** The processor's setup-intent steps: each at the intent's id, each answering its state (not the wrapper). */
type ProcessorStep = typeof endpoints.processor.confirmSetupIntent | typeof endpoints.processor.completeChallenge;

const textOf = (message: unknown) => (typeof message === 'string' ? message : JSON.stringify(message));

/**
 * One call to the card processor. It stands for a hosted card provider, so it is plain `fetch`:
 * no bearer token, no account header, no cookies. An error answer rejects with the processor's
 * own message (e.g. "Your card was declined.").
 */
async function send<E extends ProcessorStep>(
  endpoint: E,
  id: string,
  body: EndpointBody<E>,
): Promise<SetupIntentState> {
  const response = await fetch(endpointPath(endpoint.path, { id }), {
    method: endpoint.method,
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'omit',
  });
  const text = await response.text();
  let answer: unknown = null;
  try {
    answer = text ? JSON.parse(text) : null;
  } catch {
    answer = text;
  }
  const message = answer && typeof answer === 'object' ? (answer as { message?: unknown }).message : undefined;
  if (!response.ok) {
    throw new Error(message ? textOf(message) : `Request failed with status code ${response.status}`);
  }
  const state = answer as SetupIntentState | null;
  if (state?.status !== 'succeeded' && state?.status !== 'requires_action') throw new Error(Messages.unknownError);
  return state;
}

/** Confirms the setup intent with the card as typed. */
export const confirmSetupIntent = (intent: SetupIntent, card: ProcessorCard) =>
  send(endpoints.processor.confirmSetupIntent, intent.setupIntentId, { client_secret: intent.client_secret, card });

/** The card holder's answer to the processor's confirmation challenge. */
export const answerChallenge = (intent: SetupIntent, intentId: string, approve: boolean) =>
  send(endpoints.processor.completeChallenge, intentId, { client_secret: intent.client_secret, approve });
