import type { ComponentType } from 'react';
import { matchRoutes, Navigate, type RouteObject } from 'react-router-dom';
import { FullPageSpinner } from '../components/full-page-spinner';
import { accountRoutes, paths } from '../config/paths';
import type { CrumbTrail } from '../lib/breadcrumb';
import { Texts } from '../lib/texts';
import { RouteError } from './route-error';

/** Route data read by the account layout's breadcrumb. */
export interface RouteHandle {
  crumb?: CrumbTrail;
}

type Load = () => Promise<ComponentType>;

/** Route fields that fit both index and path routes. */
interface LazyPage {
  lazy: () => Promise<Pick<RouteObject, 'Component' | 'element'>>;
  ErrorBoundary?: ComponentType;
  handle?: RouteHandle;
}

// Every page and layout is its own chunk, so the sign-in bundle carries no account screens.
const lazyComponent = (load: Load): LazyPage => ({ lazy: async () => ({ Component: await load() }) });

const page = (load: Load): LazyPage => ({ ...lazyComponent(load), ErrorBoundary: RouteError });

const loginPage = () => page(() => import('../features/identity/login-page').then((m) => m.LoginPage));
// Both route tables: signed in it welcomes and goes on, signed out it tells the Login page the sign-in failed.
const thirdPartyLanding = () =>
  page(() => import('../features/identity/third-party-landing').then((m) => m.ThirdPartyLanding));

export const signedOutRoutes: RouteObject[] = [
  {
    path: paths.root,
    ...lazyComponent(() => import('./layouts/auth-layout').then((m) => m.AuthLayout)),
    HydrateFallback: FullPageSpinner,
    ErrorBoundary: RouteError,
    children: [
      { index: true, ...loginPage() },
      { path: paths.login, ...loginPage() },
      { path: paths.signUp, ...page(() => import('../features/identity/sign-up-route').then((m) => m.SignUpRoute)) },
      {
        path: paths.forgotPassword,
        ...page(() => import('../features/identity/forgot-password-page').then((m) => m.ForgotPasswordPage)),
      },
      {
        path: paths.resetPassword,
        ...page(() => import('../features/identity/reset-password-page').then((m) => m.ResetPasswordPage)),
      },
      { path: paths.thirdPartySignIn, ...thirdPartyLanding() },
      { path: '*', ...loginPage() },
    ],
  },
];

const t = Texts.pageTitles;
const billings = { subItem: Texts.sideMenu.billings, items: [Texts.sideMenu.overview] };
const services = { items: [Texts.sideMenu.services] };

const toAccounts = <Navigate to={paths.accounts} replace />;

export const signedInRoutes: RouteObject[] = [
  {
    path: paths.root,
    ...lazyComponent(() => import('./layouts/main-layout').then((m) => m.MainLayout)),
    HydrateFallback: FullPageSpinner,
    ErrorBoundary: RouteError,
    children: [
      { index: true, element: toAccounts },
      { path: paths.accounts, ...page(() => import('../features/accounts/accounts-page').then((m) => m.AccountsPage)) },
      {
        path: paths.accountsCreate,
        ...page(() => import('../features/accounts/create-account-page').then((m) => m.CreateAccountPage)),
      },
      {
        path: paths.changePassword,
        ...page(() => import('../features/identity/change-password-page').then((m) => m.ChangePasswordPage)),
      },
      {
        path: paths.security,
        ...page(() => import('../features/identity/security-page').then((m) => m.SecurityPage)),
      },
      {
        path: paths.ambassadorProgram,
        ...page(() => import('../features/ambassador/ambassador-page').then((m) => m.AmbassadorPage)),
      },
      {
        path: paths.account,
        ...lazyComponent(() => import('./layouts/account-layout').then((m) => m.AccountLayout)),
        ErrorBoundary: RouteError,
        children: [
          { index: true, element: <Navigate to={accountRoutes.overview} replace /> },
          {
            path: accountRoutes.overview,
            ...page(() => import('../features/overview/overview-page').then((m) => m.OverviewPage)),
          },
          {
            path: accountRoutes.billingsOverview,
            ...page(() => import('../features/billing/billing-overview-page').then((m) => m.BillingOverviewPage)),
            handle: { crumb: { subItem: Texts.sideMenu.billings, current: Texts.sideMenu.overview } },
          },
          {
            path: accountRoutes.buyCredits,
            ...page(() => import('../features/billing/buy-credits-page').then((m) => m.BuyCreditsPage)),
            handle: { crumb: { ...billings, current: t.buyCredits } },
          },
          {
            path: accountRoutes.addPaymentCard,
            ...page(() => import('../features/cards/add-payment-card-page').then((m) => m.AddPaymentCardPage)),
            handle: { crumb: { ...billings, current: t.addPaymentCard } },
          },
          {
            path: accountRoutes.services,
            ...page(() => import('../features/services/services-page').then((m) => m.ServicesPage)),
            handle: { crumb: { current: t.services } },
          },
          {
            path: accountRoutes.rpc,
            ...page(() => import('../features/services/rpc-page').then((m) => m.RpcServicePage)),
            handle: { crumb: { ...services, current: t.rpc } },
          },
          {
            path: accountRoutes.status,
            ...page(() => import('../features/services/status-page').then((m) => m.StatusPage)),
            handle: { crumb: { ...services, current: t.status } },
          },
          {
            path: accountRoutes.pricing,
            ...page(() => import('../features/services/pricing-page').then((m) => m.PricingPage)),
            handle: { crumb: { ...services, current: t.pricing } },
          },
          {
            path: accountRoutes.analytics,
            ...page(() => import('../features/insight/analytics-page').then((m) => m.AnalyticsPage)),
            handle: { crumb: { ...services, current: t.analytics } },
          },
          {
            path: accountRoutes.requests,
            ...page(() => import('../features/insight/requests-page').then((m) => m.RequestsPage)),
            handle: { crumb: { ...services, current: t.requests } },
          },
          {
            path: accountRoutes.webhooks,
            ...page(() => import('../features/webhooks/webhooks-page').then((m) => m.WebhooksPage)),
            handle: { crumb: { ...services, current: t.webhooks } },
          },
          {
            path: accountRoutes.webhook,
            ...page(() => import('../features/webhooks/webhook-page').then((m) => m.WebhookPage)),
            handle: { crumb: { ...services, current: t.webhook } },
          },
          {
            path: accountRoutes.apiKeys,
            ...page(() => import('../features/keys/api-keys-page').then((m) => m.ApiKeysPage)),
            handle: { crumb: { current: t.apiKeys } },
          },
          {
            path: accountRoutes.contactUs,
            ...page(() => import('../features/support/contact-us-page').then((m) => m.ContactUsPage)),
            handle: { crumb: { current: t.contactUs } },
          },
          {
            path: accountRoutes.settings,
            ...page(() => import('../features/settings/settings-page').then((m) => m.SettingsPage)),
            handle: { crumb: { current: t.settings } },
          },
          {
            path: accountRoutes.wallets,
            ...page(() => import('../features/forwarding/wallets-page').then((m) => m.WalletsPage)),
            handle: { crumb: { ...services, current: t.wallets } },
          },
          {
            path: accountRoutes.createWallet,
            ...page(() => import('../features/forwarding/create-wallet-page').then((m) => m.CreateWalletPage)),
            handle: { crumb: { ...services, current: t.createWallet } },
          },
          {
            path: accountRoutes.transactions,
            ...page(() => import('../features/forwarding/transactions-page').then((m) => m.TransactionsPage)),
            handle: { crumb: { ...services, current: t.transactions } },
          },
        ],
      },
      { path: paths.thirdPartySignIn, ...thirdPartyLanding() },
      { path: '*', element: toAccounts },
    ],
  },
];

/**
 * Starts loading the code of the page at `pathname` (its layouts and page chunks, all at once)
 * while the session is still being restored, instead of one chunk after another once the router
 * renders; the router's own loads then find them loaded. `signedIn` is a guess (a user record kept
 * from the last visit): a wrong guess only loads a page that is not shown.
 */
export function preloadRoute(pathname: string, signedIn: boolean): void {
  for (const match of matchRoutes(signedIn ? signedInRoutes : signedOutRoutes, pathname) ?? []) {
    const { lazy } = match.route;
    if (typeof lazy === 'function') void lazy().catch(() => undefined);
  }
}
