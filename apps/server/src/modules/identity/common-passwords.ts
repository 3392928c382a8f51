import { readFileSync } from 'node:fs';

/**
 * The 10 000 most common passwords of public breaches, lower case, one per line: SecLists'
 * Passwords/Common-Credentials/10k-most-common.txt (MIT licence). Shipped with the server so the
 * check (ASVS 2.1.7) needs no network; the server build copies it beside the bundle.
 */
const LIST = new URL('./common-passwords.txt', import.meta.url);

let common: Set<string> | undefined;

/** Whether a password is on the list, whatever its case: "Password1" is as guessable as "password1". */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(readFileSync(LIST, 'utf8').split('\n'));
  return common.has(password.toLowerCase());
}
