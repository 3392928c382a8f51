import {
  type AlertSetting,
  ERROR_RATE_MIN_CALLS,
  ERROR_RATE_MINUTES,
  quotedName,
  SPENDING_CAP_ALERT,
  SPENDING_CAP_SHARES,
} from '@ebs/contract';
import type { AlertState } from './alerts.store.ts';

/** What the alerts of one account are judged on. */
export interface AccountFacts {
  accountId: string;
  /** Available credit, USD (decimal text). */
  credit: string;
  /** Today's usage cost, USD (decimal text). */
  spentToday: string;
  /** The account's active keys with their daily limits (0: none) and today's requests. */
  keys: Array<{ keyId: string; name: string; dailyLimit: number; requestsToday: number }>;
  /** Calls and failed calls over the error-rate window. */
  recent: { calls: number; errors: number };
  /** This calendar month's (UTC) RPC usage cost, USD (decimal text). */
  rpcSpentThisMonth: string;
  /** The monthly spending cap, USD (decimal text), or null when none is set. */
  monthlyCapUsd: string | null;
}

const usd = (value: number) => value.toFixed(2);
const percent = (value: number) => `${Math.round(value * 10) / 10}%`;

/** This month's RPC usage against the cap, as the 80% alert and a cleared cap alert tell it. */
export function capUsageMessage(facts: AccountFacts): string {
  const spent = Number(facts.rpcSpentThisMonth);
  const cap = Number(facts.monthlyCapUsd);
  return `This month's RPC usage is ${usd(spent)} USD, ${percent((spent / cap) * 100)} of the monthly spending cap of ${usd(cap)} USD.`;
}

/** The spending cap's alerts that hold: one per share of the cap this month's RPC usage has reached. */
function capAlertsHolding(facts: AccountFacts): Array<{ share: number; message: string }> {
  if (facts.monthlyCapUsd === null) return [];
  const spent = Number(facts.rpcSpentThisMonth);
  const cap = Number(facts.monthlyCapUsd);
  return SPENDING_CAP_SHARES.filter((share) => spent * 100 >= cap * share).map((share) => ({
    share,
    message:
      share < 100
        ? capUsageMessage(facts)
        : `This month's RPC usage reached the monthly spending cap of ${usd(cap)} USD: RPC calls are refused until the cap is raised in Billing.`,
  }));
}

/** The alerts of an account that hold on its facts, each with the message that tells of it. */
export function holdingNow(alerts: AlertSetting[], facts: AccountFacts): AlertState[] {
  const holding: AlertState[] = [];
  const hold = (kind: AlertState['kind'], message: string, subject = '') =>
    holding.push({ accountId: facts.accountId, kind, subject, message });
  for (const alert of alerts) {
    if (!alert.enabled) continue;
    const { threshold } = alert;
    switch (alert.kind) {
      case 'LOW_CREDIT': {
        const credit = Number(facts.credit);
        if (credit < threshold) {
          hold('LOW_CREDIT', `Available credit is ${usd(credit)} USD, below ${usd(threshold)} USD.`);
        }
        break;
      }
      case 'DAILY_SPEND': {
        const spent = Number(facts.spentToday);
        if (spent > threshold) hold('DAILY_SPEND', `Spend today is ${usd(spent)} USD, above ${usd(threshold)} USD.`);
        break;
      }
      case 'KEY_DAILY_LIMIT':
        for (const key of facts.keys) {
          if (key.dailyLimit <= 0) continue;
          const used = (key.requestsToday / key.dailyLimit) * 100;
          if (used >= threshold) {
            hold(
              'KEY_DAILY_LIMIT',
              `The key ${quotedName(key.name)} has used ${percent(used)} of its daily limit of ${key.dailyLimit.toLocaleString('en-US')} requests.`,
              key.keyId,
            );
          }
        }
        break;
      case 'ERROR_RATE': {
        const { calls, errors } = facts.recent;
        const rate = calls === 0 ? 0 : (errors / calls) * 100;
        if (calls >= ERROR_RATE_MIN_CALLS && rate > threshold) {
          hold(
            'ERROR_RATE',
            `${percent(rate)} of ${calls.toLocaleString('en-US')} calls failed over the last ${ERROR_RATE_MINUTES} minutes, above ${percent(threshold)}.`,
          );
        }
        break;
      }
    }
  }
  // Not in the alerts form: they hold whenever a cap is set.
  for (const { share, message } of capAlertsHolding(facts)) hold(SPENDING_CAP_ALERT, message, String(share));
  return holding;
}

/** A key's effective daily limit: its own, under the deployment's (0: no limit). */
export function dailyLimitOf(own: number | null, deployment: number): number {
  if (own === null || own <= 0) return deployment;
  return deployment > 0 ? Math.min(own, deployment) : own;
}
