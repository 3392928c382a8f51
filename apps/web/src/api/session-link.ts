import type { AuthSession } from '@ebs/contract';

/**
 * What the HTTP client needs of the signed-in session. The session sits above the client (it calls
 * the API) and hands these over at start-up (session/api-link.ts), so the client never imports it.
 */
export interface SessionLink {
  /** The identity token to send as the bearer; null when signed out. */
  idToken(): string | null;
  /** The current account's id: the `ebs-account-id` of a call that names no account. */
  currentAccountId(): string | undefined;
  /** A renewed identity token (refreshIdToken): the session stores it. */
  renewed(session: AuthSession): void;
  /** The token cannot be renewed, or the server ended it: sign out. */
  signOut(): Promise<void>;
}

/** Until the session is linked: no token, no current account, nothing to store or sign out of. */
const unlinked: SessionLink = {
  idToken: () => null,
  currentAccountId: () => undefined,
  renewed: () => {},
  signOut: () => Promise.resolve(),
};

let link: SessionLink = unlinked;

export function setSessionLink(next: SessionLink): void {
  link = next;
}

export const sessionLink = (): SessionLink => link;
