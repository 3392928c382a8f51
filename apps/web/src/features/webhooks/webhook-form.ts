import {
  type CreateNotifyWebhookBody,
  ForwardingMessages,
  NOTIFY_CATEGORIES,
  NOTIFY_LIMITS,
  type NotifyCategory,
  NotifyMessages,
} from '@ebs/contract';
import type { FormRule } from 'antd';
import { parseAddresses } from './parse-addresses';
import { WebhooksTexts as T } from './webhooks-texts';

export interface WebhookFields {
  name?: string;
  network?: string;
  url?: string;
  categories?: NotifyCategory[];
  confirmations?: number | string | null;
  /** The addresses as typed, pasted or read from a file. */
  addresses?: string;
}

export const INITIAL_FIELDS: WebhookFields = { categories: [...NOTIFY_CATEGORIES], confirmations: 0, addresses: '' };

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

const check = (problem: (value: unknown) => string | undefined): FormRule => ({
  validator: (_rule, value: unknown) => {
    const found = problem(value);
    return found ? Promise.reject(new Error(found)) : Promise.resolve();
  },
});

/** The server checks a webhook's URL as token forwarding's, in the same words: http or https, a host, no credentials. */
function urlProblem(value: unknown): string | undefined {
  const url = trimmed(value);
  if (!url) return ForwardingMessages.webhookUrlRequired;
  try {
    const { protocol, hostname, username, password } = new URL(url);
    const valid = (protocol === 'http:' || protocol === 'https:') && hostname && !username && !password;
    return valid ? undefined : ForwardingMessages.webhookUrlInvalid;
  } catch {
    return ForwardingMessages.webhookUrlInvalid;
  }
}

const isWholeNumber = (value: unknown) =>
  (typeof value === 'number' || (typeof value === 'string' && value.trim() !== '')) && Number.isInteger(Number(value));

/**
 * What the server refuses in a list of addresses, in its words, checked here first: none at all, an
 * entry that is not an address (named by its place in the list), more than a webhook watches.
 */
export function addressesProblem(value: unknown): string | undefined {
  const { addresses, invalid } = parseAddresses(typeof value === 'string' ? value : '');
  const [first] = invalid;
  if (first) return NotifyMessages.addressInvalid('addresses', first.index, first.value);
  if (addresses.length === 0) return NotifyMessages.addressesRequired;
  if (addresses.length > NOTIFY_LIMITS.addressesPerWebhook) return NotifyMessages.tooManyAddresses;
  return undefined;
}

/** The create form's checks, with the server's messages where it has one. */
export const Rules = {
  name: check((value) => (trimmed(value) ? undefined : NotifyMessages.nameRequired)),
  network: check((value) => (trimmed(value) ? undefined : T.networkRequired)),
  url: check(urlProblem),
  categories: check((value) => (Array.isArray(value) && value.length > 0 ? undefined : NotifyMessages.categoriesEmpty)),
  confirmations: check((value) =>
    isWholeNumber(value) && Number(value) >= 0 && Number(value) <= NOTIFY_LIMITS.maxConfirmations
      ? undefined
      : NotifyMessages.confirmationsInvalid,
  ),
  addresses: check(addressesProblem),
};

/** The create call's body of the checked form, with every address (the call sends them 1000 at a time). */
export const createBody = (fields: WebhookFields): CreateNotifyWebhookBody => ({
  name: trimmed(fields.name),
  network: fields.network ?? '',
  url: trimmed(fields.url),
  addresses: parseAddresses(fields.addresses ?? '').addresses,
  categories: NOTIFY_CATEGORIES.filter((category) => fields.categories?.includes(category)),
  confirmations: Number(fields.confirmations ?? 0),
});

export interface ReplayFields {
  fromBlock?: number | string | null;
  toBlock?: number | string | null;
}

const blockRule = check((value) => (isWholeNumber(value) && Number(value) >= 0 ? undefined : T.blockRequired));

/** A replay's range: whole block numbers, toBlock not before fromBlock, at most 10,000 blocks. */
export const ReplayRules = {
  fromBlock: blockRule,
  toBlock: [
    blockRule,
    ({ getFieldValue }) => ({
      validator: (_rule, value: unknown) => {
        const from = getFieldValue('fromBlock') as unknown;
        if (!isWholeNumber(from) || !isWholeNumber(value)) return Promise.resolve();
        const span = Number(value) - Number(from);
        return span >= 0 && span < NOTIFY_LIMITS.replayBlocks
          ? Promise.resolve()
          : Promise.reject(new Error(NotifyMessages.replayRange));
      },
    }),
  ] satisfies FormRule[],
};
