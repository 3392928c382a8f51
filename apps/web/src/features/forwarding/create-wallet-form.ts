import { ERC20_TOKEN, ForwardingMessages } from '@ebs/contract';
import type { FormRule } from 'antd';
import type { CreateRequest } from './forwarding-mutations';

/** spec B §2: the three kinds of wallet the create page makes; tokenForwardingWallet is the default. */
export type WalletType = CreateRequest['walletType'];
export const DEFAULT_WALLET_TYPE: WalletType = 'tokenForwardingWallet';

export interface CreateWalletFields {
  walletType: WalletType;
  network?: string;
  name?: string;
  token?: string;
  smartContractAddress?: string;
  minimumForwardingAmount?: number | string | null;
  destinationPublicAddress?: string;
  gasFeeFundingWalletId?: string;
  webhookUrl?: string;
  webhookHeader?: string;
  webhookHeaderValue?: string;
}

/** A value counts as given when it is not empty once trimmed. */
export const isGiven = (value: unknown) =>
  value !== undefined && value !== null && (typeof value !== 'string' || value.trim() !== '');

const trimmed = (value: string | undefined) => (value ?? '').trim();

export const required = (message: string): FormRule => ({
  validator: (_rule, value: unknown) => (isGiven(value) ? Promise.resolve() : Promise.reject(new Error(message))),
});

/** spec B §5: the webhook header and its value are required once a webhook URL is given. */
export const requiredWithWebhook =
  (message: string): FormRule =>
  ({ getFieldValue }) => ({
    validator: (_rule, value: unknown) =>
      !isGiven(getFieldValue('webhookUrl')) || isGiven(value) ? Promise.resolve() : Promise.reject(new Error(message)),
  });

/** Which fields the wallet type (and, for a forwarding wallet, its token) shows (spec B §2, §4). */
export function visibleFields(walletType: WalletType, token: string | undefined) {
  const forwarding = walletType === 'tokenForwardingWallet';
  const erc20 = forwarding && token === ERC20_TOKEN;
  return {
    name: !forwarding,
    token: forwarding,
    smartContractAddress: erc20,
    minimumForwardingAmount: forwarding,
    /** A forwarding wallet picks one of the account's destination wallets; a destination wallet types it. */
    destinationPublicAddress: walletType !== 'gasFeeFundingWallet',
    gasFeeFundingWalletId: erc20,
    webhook: forwarding,
  };
}

/** The webhook fields as sent: trimmed, the header and its value only when given (spec B §5). */
export function webhookOf(fields: Pick<CreateWalletFields, 'webhookUrl' | 'webhookHeader' | 'webhookHeaderValue'>) {
  const url = trimmed(fields.webhookUrl);
  if (!url) return undefined;
  const header = trimmed(fields.webhookHeader);
  const headerValue = trimmed(fields.webhookHeaderValue);
  return { url, ...(header && { header }), ...(headerValue && { headerValue }) };
}

/** The create call of the validated form (spec B §7). */
export function createRequest(fields: CreateWalletFields): CreateRequest {
  const network = fields.network ?? '';
  switch (fields.walletType) {
    case 'destinationWallet':
      return {
        walletType: 'destinationWallet',
        body: {
          network,
          name: trimmed(fields.name),
          destinationPublicAddress: trimmed(fields.destinationPublicAddress),
        },
      };
    case 'gasFeeFundingWallet':
      return { walletType: 'gasFeeFundingWallet', body: { network, name: trimmed(fields.name) } };
    case 'tokenForwardingWallet': {
      const token = fields.token ?? '';
      const erc20 = token === ERC20_TOKEN;
      return {
        walletType: 'tokenForwardingWallet',
        body: {
          network,
          token,
          ...(erc20 && {
            smartContractAddress: trimmed(fields.smartContractAddress),
            gasFeeFundingWalletId: fields.gasFeeFundingWalletId,
          }),
          minimumForwardingAmount: fields.minimumForwardingAmount ?? 0,
          destinationPublicAddress: fields.destinationPublicAddress ?? '',
          webhookSetting: webhookOf(fields),
        },
      };
    }
  }
}

export const Required = {
  network: required(ForwardingMessages.networkRequired),
  name: required(ForwardingMessages.nameRequired),
  token: required(ForwardingMessages.tokenRequired),
  smartContractAddress: required(ForwardingMessages.smartContractAddressRequired),
  minimumForwardingAmount: required(ForwardingMessages.minimumForwardingAmountRequired),
  destinationPublicAddress: required(ForwardingMessages.destinationPublicAddressRequired),
  gasFeeFundingWalletId: required(ForwardingMessages.gasFeeFundingWalletIdRequired),
  webhookHeader: requiredWithWebhook(ForwardingMessages.webhookHeaderRequired),
  webhookHeaderValue: requiredWithWebhook(ForwardingMessages.webhookHeaderValueRequired),
};
