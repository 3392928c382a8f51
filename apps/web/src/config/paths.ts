import { THIRD_PARTY_LANDING_PATH } from '@ebs/contract';

/** Every route path of the console, in one place (spec B §2). */
export const paths = {
  root: '/',
  login: '/login',
  signUp: '/sign-up',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  accounts: '/accounts',
  accountsCreate: '/accounts/create',
  changePassword: '/change-password',
  security: '/security',
  ambassadorProgram: '/ambassador-program',
  account: '/account/:accountId',
  thirdPartySignIn: THIRD_PARTY_LANDING_PATH,
} as const;

/** Account-scoped route segments, relative to /account/:accountId. */
export const accountRoutes = {
  overview: 'overview',
  services: 'services',
  rpc: 'services/rpc',
  status: 'services/status',
  pricing: 'services/pricing',
  analytics: 'services/analytics',
  requests: 'services/requests',
  webhooks: 'services/webhooks',
  webhook: 'services/webhooks/:webhookId',
  wallets: 'services/token-forwarding/wallets',
  createWallet: 'services/token-forwarding/wallets/create',
  transactions: 'services/token-forwarding/transactions',
  apiKeys: 'apiKeys',
  billingsOverview: 'billings/overview',
  buyCredits: 'billings/buyCredits',
  addPaymentCard: 'billings/addPaymentCard',
  settings: 'settings',
  contactUs: 'contactUs',
} as const;

export type AccountRoute = keyof typeof accountRoutes;

export const accountPath = (accountId: string, route: AccountRoute) =>
  `/account/${encodeURIComponent(accountId)}/${accountRoutes[route]}`;

/** One address-activity webhook's page. */
export const webhookPath = (accountId: string, webhookId: string) =>
  `${accountPath(accountId, 'webhooks')}/${encodeURIComponent(webhookId)}`;
