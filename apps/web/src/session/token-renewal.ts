import { refreshIdToken } from '../api/client';
import { getSession, subscribe } from './session-store';

const RENEW_BEFORE_MS = 60_000;

let timer: ReturnType<typeof setTimeout> | undefined;
let scheduledFor: number | null = null;
let started = false;

function schedule() {
  const { expiresAt } = getSession();
  if (expiresAt === scheduledFor) return;
  scheduledFor = expiresAt;
  clearTimeout(timer);
  if (expiresAt === null) return;
  const lifetime = expiresAt - Date.now();
  // Short-lived tokens renew at half-life so that a renewal never chases its own expiry.
  const delay = Math.max(lifetime - RENEW_BEFORE_MS, lifetime / 2, 0);
  timer = setTimeout(() => {
    refreshIdToken().catch((error: unknown) => console.error('Silent token renewal failed', error));
  }, delay);
}

/** Renews the identity token about a minute before it expires, every time a new one is stored. */
export function startTokenRenewal() {
  if (!started) subscribe(schedule);
  started = true;
  schedule();
}
