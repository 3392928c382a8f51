import {
  badRequest,
  FORWARDING_NETWORKS,
  hasControlCharacters,
  isNetwork,
  ForwardingMessages as M,
  MINIMUM_FORWARDING_AMOUNT,
  type Network,
} from '@ebs/contract';
import type { FastifyRequest } from 'fastify';
import { getAddress, isAddress } from 'viem';

/** A token forwarding network this service forwards on (the EVM ones). */
export function checkNetwork(value: unknown): Network {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) throw badRequest(M.networkRequired);
  if (!isNetwork(text)) throw badRequest(M.unknownNetwork(text));
  if (FORWARDING_NETWORKS[text].kind !== 'evm') throw badRequest(M.networkNotSupported(text));
  return text;
}

/** A 0x address in its checksummed form; a mixed-case address must carry a right checksum. */
export function checkAddress(value: unknown, field: string): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!isAddress(text, { strict: false }) || (/[a-f]/.test(text) && /[A-F]/.test(text) && !isAddress(text))) {
    throw badRequest(M.invalidAddress(field));
  }
  return getAddress(text);
}

const AMOUNT = /^\d{1,3}(\.\d{1,5})?$/;

/** 0 to 100 with at most 5 decimals (the form's step), as decimal text. */
export function checkMinimumAmount(value: unknown): string {
  const text = typeof value === 'number' ? numberText(value) : typeof value === 'string' ? value.trim() : '';
  if (!AMOUNT.test(text)) throw badRequest(M.amountOutOfRange);
  const [whole = '0'] = text.split('.');
  const overMax =
    Number(whole) > MINIMUM_FORWARDING_AMOUNT.max ||
    (Number(whole) === MINIMUM_FORWARDING_AMOUNT.max && /\.\d*[1-9]/.test(text));
  if (overMax) throw badRequest(M.amountOutOfRange);
  return text;
}

/**
 * A JSON number as plain decimal text (1e-5 → 0.00001). A number that is not a whole count of
 * 0.00001 steps, or not finite, gets text that fails the pattern: rounding it would quietly store
 * another amount than the one sent (0.00000000001 as 0). Negative ones fail the pattern too.
 */
function numberText(value: number): string {
  const steps = Math.round(value * 100_000);
  if (!Number.isFinite(value) || steps / 100_000 !== value) return 'x';
  return (steps / 100_000).toFixed(5).replace(/0+$/, '').replace(/\.$/, '');
}

/** A name given with a visible character, and no line break, tab or other control character. */
export function checkName(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) throw badRequest(M.nameRequired);
  if (hasControlCharacters(text)) throw badRequest(M.nameInvalid);
  return text;
}

type Fields = Record<string, unknown>;
const given = (value: unknown) =>
  value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');

/**
 * Runs before the schema, so a missing field gets the spec's own text (spec B §5) rather than the
 * schema's wording. `rules` answers the first missing field's message for a body.
 */
export const requiredFields =
  (rules: (body: Fields) => Array<[unknown, string]>) =>
  async (request: FastifyRequest): Promise<void> => {
    const body = request.body;
    const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Fields) : {};
    for (const [value, message] of rules(fields)) {
      if (!given(value)) throw badRequest(message);
    }
  };

const webhookOf = (body: Fields): Fields =>
  body.webhookSetting && typeof body.webhookSetting === 'object' ? (body.webhookSetting as Fields) : {};

/** spec B §5 Create wallet, for a token forwarding wallet. */
export const forwardingWalletRules = (body: Fields): Array<[unknown, string]> => {
  const erc20 = typeof body.token === 'string' && body.token.trim() === 'ERC20';
  const webhook = webhookOf(body);
  return [
    [body.network, M.networkRequired],
    [body.token, M.tokenRequired],
    ...(erc20 ? ([[body.smartContractAddress, M.smartContractAddressRequired]] as Array<[unknown, string]>) : []),
    [body.minimumForwardingAmount, M.minimumForwardingAmountRequired],
    [body.destinationPublicAddress, M.destinationPublicAddressRequired],
    ...(erc20 ? ([[body.gasFeeFundingWalletId, M.gasFeeFundingWalletIdRequired]] as Array<[unknown, string]>) : []),
    ...(given(webhook.url)
      ? ([
          [webhook.header, M.webhookHeaderRequired],
          [webhook.headerValue, M.webhookHeaderValueRequired],
        ] as Array<[unknown, string]>)
      : []),
  ];
};
