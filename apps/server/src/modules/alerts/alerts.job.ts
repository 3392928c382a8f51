import { type AlertKind, ERROR_RATE_MINUTES, quotedName, SPENDING_CAP_ALERT } from '@ebs/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { findAccountOwner, findMemberRole, listSpendingCaps } from '../accounts/index.ts';
import { findUserEmail } from '../identity/index.ts';
import { recentCallsSince } from '../insight/index.ts';
import { findActiveKeyDayLimits } from '../keys/index.ts';
import { availableCredits } from '../ledger/index.ts';
import { keyRequestsOn, rpcSpendOfMonth, spendOn, utcDay } from '../usage/index.ts';
import { type AccountFacts, capUsageMessage, dailyLimitOf, holdingNow } from './alert-conditions.ts';
import {
  type AlertState,
  claimStart,
  claimStop,
  holdingAlerts,
  refreshMessage,
  type WatchedAccount,
  watchedAccounts,
} from './alerts.store.ts';

/** After an alert stops, it is not told of again for this long: a value going to and fro sends no storm. */
export const ALERT_QUIET_MS = 30 * 60_000;

const TITLES: Record<AlertKind, string> = {
  LOW_CREDIT: 'Low credit',
  DAILY_SPEND: 'Spend today',
  KEY_DAILY_LIMIT: 'API key daily limit',
  ERROR_RATE: 'Error rate',
};

/** The alert's name in its e-mails: the spending cap's two are told apart by the share. */
const titleOf = (state: AlertState) =>
  state.kind === SPENDING_CAP_ALERT ? `Spending cap ${state.subject}%` : TITLES[state.kind];

export interface AlertDeps {
  db: Db;
  mailer: Mailer;
  config: Pick<Config, 'PRODUCT_NAME' | 'PUBLIC_URL' | 'RPC_RATE_LIMIT_PER_DAY'>;
}

/**
 * Reads what every watched account's alerts are judged on, a query per kind of fact; the month's
 * RPC spend only for the accounts with a cap (`caps`).
 */
async function factsOf(
  deps: AlertDeps,
  accounts: WatchedAccount[],
  caps: Map<string, string>,
  now: Date,
): Promise<AccountFacts[]> {
  const ids = accounts.map((a) => a.accountId);
  const today = utcDay(now);
  const [credits, spends, requests, keys, recent, monthSpends] = await Promise.all([
    availableCredits(deps.db, ids),
    spendOn(deps.db, ids, today),
    keyRequestsOn(deps.db, ids, today),
    findActiveKeyDayLimits(deps.db, ids),
    recentCallsSince(deps.db, ids, new Date(now.getTime() - ERROR_RATE_MINUTES * 60_000)),
    rpcSpendOfMonth(deps.db, [...caps.keys()], today.slice(0, 7)),
  ]);
  return ids.map((accountId) => ({
    accountId,
    credit: credits.get(accountId) ?? '0',
    spentToday: spends.get(accountId) ?? '0',
    keys: keys
      .filter((k) => k.accountId === accountId)
      .map((k) => ({
        keyId: k.keyId,
        name: k.name,
        dailyLimit: dailyLimitOf(k.requestsPerDay, deps.config.RPC_RATE_LIMIT_PER_DAY),
        requestsToday: requests.get(k.keyId) ?? 0,
      })),
    recent: recent.get(accountId) ?? { calls: 0, errors: 0 },
    rpcSpentThisMonth: monthSpends.get(accountId) ?? '0',
    monthlyCapUsd: caps.get(accountId) ?? null,
  }));
}

/** The owner's address, and those of the chosen members who are still members. */
async function recipientsOf(db: Db, account: WatchedAccount): Promise<{ name: string; emails: string[] } | undefined> {
  const owner = await findAccountOwner(db, account.accountId);
  if (!owner) return undefined;
  const ids = [owner.ownerId];
  for (const userId of account.recipients) {
    if (!ids.includes(userId) && (await findMemberRole(db, account.accountId, userId))) ids.push(userId);
  }
  const emails = (await Promise.all(ids.map((id) => findUserEmail(db, id)))).filter((e): e is string => Boolean(e));
  return { name: owner.name, emails };
}

async function tell(deps: AlertDeps, account: WatchedAccount, state: AlertState, started: boolean): Promise<void> {
  const to = await recipientsOf(deps.db, account);
  if (!to) return;
  const title = titleOf(state);
  const link = `${deps.config.PUBLIC_URL.replace(/\/$/, '')}/account/${account.accountId}/overview`;
  const subject = `${deps.config.PRODUCT_NAME}: ${title} alert ${started ? 'started' : 'cleared'} on ${quotedName(to.name)}`;
  const text = started
    ? `${state.message}\n\nThe alert "${title}" of the account ${quotedName(to.name)} holds from now. You will get one more e-mail when it clears.\n\n${link}`
    : `The alert "${title}" of the account ${quotedName(to.name)} has cleared. ${state.message}\n\n${link}`;
  for (const email of to.emails) await deps.mailer.send({ to: email, subject, text });
}

/**
 * Judges every watched account's alerts: an alert that starts to hold sends one e-mail (to the
 * owner and the chosen members) and shows in the console's header; one that stops sends one more
 * and leaves the header. Each change is claimed in the database first, so processes running this
 * at once send each e-mail once. An alert turned off while holding is cleared without an e-mail,
 * as are the spending cap's once the cap is removed.
 */
export async function checkAlerts(deps: AlertDeps, now = new Date()): Promise<{ started: number; cleared: number }> {
  const caps = await listSpendingCaps(deps.db);
  const accounts = await watchedAccounts(deps.db, [...caps.keys()]);
  if (accounts.length === 0) return { started: 0, cleared: 0 };
  const [facts, held] = await Promise.all([
    factsOf(deps, accounts, caps, now),
    holdingAlerts(
      deps.db,
      accounts.map((a) => a.accountId),
    ),
  ]);
  const figures = { started: 0, cleared: 0 };
  for (const [i, account] of accounts.entries()) {
    const holding = holdingNow(account.alerts, facts[i] as AccountFacts);
    const key = (s: AlertState) => `${s.kind}|${s.subject}`;
    const heldNow = new Map(held.filter((s) => s.accountId === account.accountId).map((s) => [key(s), s]));
    for (const state of holding) {
      if (heldNow.has(key(state))) await refreshMessage(deps.db, state);
      else if (await claimStart(deps.db, state, ALERT_QUIET_MS)) {
        figures.started++;
        await tell(deps, account, state, true);
      }
    }
    const stillHolding = new Set(holding.map(key));
    for (const state of heldNow.values()) {
      if (stillHolding.has(key(state))) continue;
      const enabled =
        state.kind === SPENDING_CAP_ALERT
          ? caps.has(account.accountId)
          : account.alerts.some((a) => a.kind === state.kind && a.enabled);
      const cleared = { ...state, message: enabled ? clearedMessage(state, facts[i] as AccountFacts) : state.message };
      if (await claimStop(deps.db, cleared)) {
        figures.cleared++;
        if (enabled) await tell(deps, account, cleared, false);
      }
    }
  }
  return figures;
}

/** What a cleared alert's e-mail says of the figure now. */
function clearedMessage(state: AlertState, facts: AccountFacts): string {
  switch (state.kind) {
    case SPENDING_CAP_ALERT:
      return capUsageMessage(facts);
    case 'LOW_CREDIT':
      return `Available credit is ${Number(facts.credit).toFixed(2)} USD.`;
    case 'DAILY_SPEND':
      return `Spend today is ${Number(facts.spentToday).toFixed(2)} USD.`;
    case 'KEY_DAILY_LIMIT':
      return 'The key is back under the share of its daily limit you set (or no longer active).';
    case 'ERROR_RATE':
      return `${facts.recent.errors} of ${facts.recent.calls} calls failed over the last ${ERROR_RATE_MINUTES} minutes.`;
  }
}
