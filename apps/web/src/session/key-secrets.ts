/**
 * The API key secrets this tab has been given (a key just created, or one pasted on the RPC page),
 * by key id: in memory only, never in browser storage, gone when the tab closes or reloads (signing out reloads it). Nothing
 * here is sent anywhere but to the gateway by the page that uses it.
 */
const secrets = new Map<string, string>();

/** The most a tab keeps: a pasted secret beyond it forgets the oldest. */
const MAX_SECRETS = 50;

export function rememberKeySecret(keyId: string, secret: string) {
  secrets.delete(keyId);
  if (!secret) return;
  secrets.set(keyId, secret);
  const oldest = secrets.keys().next().value;
  if (secrets.size > MAX_SECRETS && oldest !== undefined) secrets.delete(oldest);
}

export const keySecret = (keyId: string): string | undefined => secrets.get(keyId);
