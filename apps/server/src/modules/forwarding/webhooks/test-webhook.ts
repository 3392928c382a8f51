import type { TestWebhookResult, TokenForwardingTransaction } from '@ebs/contract';
import type { Config } from '../../../config.ts';
import { postWebhook } from './webhook-delivery.ts';
import { checkWebhookHeader, newWebhookId, webhookHeaders } from './webhook-signature.ts';
import { checkWebhookUrl, WebhookTargetError } from './webhook-target.ts';

/** The webhook event types: a finished forward, and the sample the Test button sends. */
export const WEBHOOK_COMPLETED_TYPE = 'token_forwarding.completed';
export const WEBHOOK_TEST_TYPE = 'token_forwarding.test';

/** The body of a webhook, as sent and as signed: `{ type, timestamp, data }`. */
export function webhookPayload(type: string, data: unknown, at: Date = new Date()): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/** A made-up completed forward with every field a real delivery carries. */
export function sampleTransaction(at: Date, webhookId: string): TokenForwardingTransaction {
  const time = at.toISOString();
  return {
    id: '00000000-0000-4000-8000-000000000000',
    tokenForwardingWalletId: '00000000-0000-4000-8000-000000000001',
    network: 'ETHEREUM_SEPOLIA',
    token: 'ETH',
    smartContractAddress: null,
    status: 'COMPLETED',
    amount: '0.5',
    fromAddress: '0x1111111111111111111111111111111111111111',
    toAddress: '0x2222222222222222222222222222222222222222',
    metadata: {
      originalBalance: '0.5',
      confirmations: 12,
      transactionHash: `0x${'ab'.repeat(32)}`,
      gasFundingTransactionHash: null,
      transactionReceipt: { status: 'success', blockNumber: '1', transactionHash: `0x${'ab'.repeat(32)}` },
    },
    webhookStatus: 'PENDING',
    webhookAttempt: 0,
    webhookLog: [],
    webhookId,
    createdAt: time,
    updatedAt: time,
  };
}

export interface TestWebhookInput {
  url: string;
  header?: string | null;
  headerValue?: string | null;
  /** The account's signing secrets in force, `whsec_...`, the current one first. */
  secrets: readonly string[];
  config: Pick<Config, 'WEBHOOK_ALLOW_PRIVATE_TARGETS' | 'WEBHOOK_TIMEOUT_MS'>;
}

/**
 * Sends a signed sample to a webhook URL and tells what it answered. A bad URL or header, or a
 * refused target, is the user's input: a 400 (WebhookTargetError / AppError). A target that cannot
 * be reached is an answer: status 0 and the reason.
 */
export async function testWebhook(input: TestWebhookInput): Promise<TestWebhookResult> {
  const allowPrivate = input.config.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  checkWebhookHeader(input.header, input.headerValue);
  try {
    await checkWebhookUrl(input.url, { allowPrivate });
  } catch (error) {
    if (error instanceof WebhookTargetError && error.reason === 'unreachable') {
      return { url: input.url, status: 0, body: error.message };
    }
    throw error;
  }
  const at = new Date();
  const id = newWebhookId();
  const body = webhookPayload(WEBHOOK_TEST_TYPE, sampleTransaction(at, id), at);
  const headers = webhookHeaders({
    id,
    timestamp: Math.floor(at.getTime() / 1000),
    body,
    secrets: input.secrets,
    header: input.header,
    headerValue: input.headerValue,
  });
  // postWebhook checks the target again and connects only to what that check saw.
  const answer = await postWebhook({
    url: input.url,
    headers,
    body,
    timeoutMs: input.config.WEBHOOK_TIMEOUT_MS,
    allowPrivate,
  });
  return { url: input.url, status: answer.statusCode ?? 0, body: answer.body };
}
