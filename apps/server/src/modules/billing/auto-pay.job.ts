import { randomUUID } from 'node:crypto';
import { quotedName } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import type { Mailer } from '../../mail/mailer.ts';
import {
  type AutoPayCandidate,
  backOffAutoPay,
  claimAutoPayCrossing,
  deferAutoPay,
  endAutoPayCrossing,
  listAutoPayCandidates,
  rearmAutoPay,
} from '../accounts/index.ts';
import { findDefaultCard } from '../cards/index.ts';
import { findUserNames } from '../identity/index.ts';
import { fromMicros, toMicros } from '../ledger/index.ts';
import { autoDepositsOfMonth, monthLimitWait } from './auto-pay-limit.ts';
import type { DepositService } from './deposit.service.ts';

/** Waits after the 1st, 2nd and 3rd (and later) declines in a row. */
const BACKOFF_HOURS = [1, 6, 24];

export interface AutoPayRun {
  charged: number;
  failed: number;
  /** Charges not made because they would pass the account's Auto Pay monthly limit, each with why. */
  limited: string[];
  /** Accounts that could not be processed this run (each on its own: the others still are). */
  errors: string[];
}

export interface AutoPayDeps {
  db: Db;
  deposits: DepositService;
  mailer: Mailer;
  productName: string;
  /** Told of each charge left out for the monthly limit. */
  log?: { info(fields: object, message: string): void };
}

/**
 * Auto pay (spec A §4): when an enabled account's available credit is below its threshold, charge
 * the default card its amount as DEPOSIT_AUTO, once per crossing. The crossing's key is saved
 * before the charge, so a run after a crash charges with the same key. A decline backs off and
 * tells the account owner by e-mail. A charge that would bring the month's automatic deposits past
 * the account's monthly limit is not made. Safe to run from several processes at once.
 */
export async function runAutoPay(deps: AutoPayDeps, now = new Date()): Promise<AutoPayRun> {
  const { db } = deps;
  const candidates = await listAutoPayCandidates(db);
  const owners = await ownerEmails(
    db,
    candidates.map((c) => c.owner_id),
  );
  // Each with its owner's e-mail, read at once (accounts.created_by always names a user).
  const accounts = candidates.flatMap((c) => {
    const email = owners.get(c.owner_id);
    return email ? [{ ...c, email }] : [];
  });

  const run: AutoPayRun = { charged: 0, failed: 0, limited: [], errors: [] };
  for (const account of accounts) {
    try {
      await processAccount(deps, account, run, now);
    } catch (error) {
      run.errors.push(`${account.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return run;
}

/** The e-mails of these users, by user id, in one query. */
async function ownerEmails(db: Db, userIds: string[]): Promise<Map<string, string>> {
  return new Map((await findUserNames(db, userIds)).map((u) => [u.id, u.email]));
}

/** An account due a look, with its owner's e-mail (told of a decline). */
type AutoPayAccount = AutoPayCandidate & { email: string };

/**
 * Whether the crossing's charge would bring this month's automatic deposits past the account's
 * monthly limit, and if so puts the account aside: looked at again within the hour (the limit may
 * be raised), and at the latest as the next month starts. A crossing already under way (its key
 * saved) is finished as started: its charge may have been made.
 */
async function leftOutForLimit(deps: AutoPayDeps, account: AutoPayAccount, run: AutoPayRun, now: Date) {
  if (account.auto_deposit_key || account.monthly_max === null) return false;
  const deposited = await autoDepositsOfMonth(deps.db, account.id, now);
  const amount = toMicros(account.amount);
  const max = toMicros(account.monthly_max);
  if (deposited + amount <= max) return false;
  await deferAutoPay(deps.db, account.id, monthLimitWait(now));
  const why = `${fromMicros(amount)} USD would bring this month's automatic deposits (${fromMicros(deposited)} USD) past the Auto Pay monthly limit of ${fromMicros(max)} USD`;
  run.limited.push(`${account.id}: ${why}`);
  deps.log?.info({ accountId: account.id }, `auto pay charge left out: ${why}`);
  return true;
}

async function processAccount(deps: AutoPayDeps, account: AutoPayAccount, run: AutoPayRun, now: Date): Promise<void> {
  const { db } = deps;
  // What the list read may be stale by now (another run may have charged, or credit moved): each
  // change below holds only if the account is still on the side of the threshold it was read on.
  if (!account.below) {
    // Back at the threshold: arm for the next crossing and forget what the last one left.
    if (!account.auto_deposit_armed || account.auto_deposit_failures > 0 || account.auto_deposit_key) {
      await rearmAutoPay(db, account.id);
    }
    return;
  }
  if (!account.auto_deposit_armed) return;
  if (await leftOutForLimit(deps, account, run, now)) return;

  // Claimed only while still eligible, so an overlapping run cannot start a second crossing.
  const key = await claimAutoPayCrossing(db, account.id, `autopay:${account.id}:${randomUUID()}`);
  if (!key) return;

  const card = await findDefaultCard(db, account.id);
  const amount = Number(account.amount);
  let failure: string | undefined;
  if (!card || !account.customer_id) failure = 'There is no default payment card to charge.';
  else {
    const row = await deps.deposits.post({
      accountId: account.id,
      cardId: card.id,
      token: card.providerToken,
      customerId: account.customer_id,
      amount,
      key,
      type: 'DEPOSIT_AUTO',
    });
    if (row.status === 'FAILED') failure = String(row.metadata.failure ?? 'Your card was declined.');
  }

  if (!failure) {
    await endAutoPayCrossing(db, account.id, key);
    run.charged += 1;
    return;
  }
  const failures = account.auto_deposit_failures + 1;
  const hours = BACKOFF_HOURS[Math.min(failures, BACKOFF_HOURS.length) - 1] ?? 24;
  const backedOff = await backOffAutoPay(db, account.id, key, failures, hours);
  // Only the run that ended this crossing tells the owner.
  if (!backedOff) return;
  await deps.mailer.send({
    to: account.email,
    subject: `Your ${deps.productName} auto pay payment failed`,
    text: `We could not charge ${amount} USD to the default card of the account ${quotedName(account.name)}: ${failure} We will try again in ${hours} hours. You can buy credits or change the card in the console at any time.`,
  });
  run.failed += 1;
}
