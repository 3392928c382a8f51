import { type AccountRoute, accountPath, accountRoutes, paths } from '../../apps/web/src/config/paths.ts';

/** One address of the console as a person opens it. */
export interface WebRoute {
  /** The route's pattern, as the router declares it (apps/web/src/config/paths.ts). */
  pattern: string;
  /** The address opened, with the seeded account's id where the route needs one. */
  path: string;
  signedIn: boolean;
  /** The path the page must end on: the route itself, or where it sends the person. */
  lands: string;
}

const ACCOUNT_ROUTE = paths.account;

/**
 * Every route of both route tables (apps/web/src/app/routes.tsx), taken from the one list of paths
 * so that a new page is measured without touching the bench. `/` is the Login page signed out and
 * a redirect to /accounts signed in, both measured under their own names.
 */
export function webRoutes(accountId: string): WebRoute[] {
  const signedOut: WebRoute[] = [paths.login, paths.signUp, paths.forgotPassword].map((p) => ({
    pattern: p,
    path: p,
    signedIn: false,
    lands: p,
  }));
  // Opened directly, without the e-mail in navigation state, it sends the person to /forgot-password:
  // its figure counts both pages' JavaScript.
  signedOut.push({
    pattern: paths.resetPassword,
    path: paths.resetPassword,
    signedIn: false,
    lands: paths.forgotPassword,
  });
  // Signed out, the landing of a third-party sign-in sends the person to the Login page that says it failed.
  signedOut.push({
    pattern: paths.thirdPartySignIn,
    path: paths.thirdPartySignIn,
    signedIn: false,
    lands: paths.login,
  });
  const signedIn: WebRoute[] = [
    paths.accounts,
    paths.accountsCreate,
    paths.changePassword,
    paths.ambassadorProgram,
  ].map((p) => ({ pattern: p, path: p, signedIn: true, lands: p }));
  for (const route of Object.keys(accountRoutes) as AccountRoute[]) {
    const path = accountPath(accountId, route);
    signedIn.push({ pattern: `${ACCOUNT_ROUTE}/${accountRoutes[route]}`, path, signedIn: true, lands: path });
  }
  return [...signedOut, ...signedIn];
}
