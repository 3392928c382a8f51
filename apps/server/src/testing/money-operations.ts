import { type AccountSummary, HIDDEN_ACCOUNT_NAME, Messages, rpcUrl } from '@ebs/contract';
import fc from 'fast-check';
import { runCommand } from '../app/commands.ts';
import { refreshBillingStatus } from '../modules/accounts/billing-status.ts';
import { addUsage } from '../modules/usage/usage.test-kit.ts';
import { METERED_NETWORK, type MoneyCluster, type PayingAccount, PersonClient } from './money-cluster.ts';

export const METERED_RESOURCE = 'RPC_API_ETHEREUM_MAINNET';

/** One thing a person, the gateway or an operator does; `at` picks the server processes it goes to. */
export type MoneyOperation = { delayMs: number; at: number[] } & (
  | {
      kind: 'deposit';
      account: number;
      /** The card the person believes is the default, or the other one (refused unless made default meanwhile). */
      card: 'default' | 'other';
      amount: number;
      key: 'new' | 'repeat' | 'conflict';
      /** Which earlier request of the account a repeat or a conflict reuses the key of. */
      pick: number;
    }
  | { kind: 'set default card'; account: number; card: 'good' | 'declining' }
  | { kind: 'auto pay on/off'; account: number; on: boolean }
  | { kind: 'auto pay limits'; account: number; minBalance: number; amount: number }
  | { kind: 'jobs run'; job: 'autopay' | 'billing' | 'reconcile'; runners: number[] }
  | { kind: 'gateway calls'; account: number }
  | { kind: 'usage metered'; account: number; usage: number }
  | { kind: 'redeem welcome credit'; account: number }
  | { kind: 'new account with welcome credit' }
  | { kind: 'manual deposit'; account: number; cents: number }
);

/** Random operations over `accounts` accounts, `processes` server processes and `runners` job runners. */
export function moneyOperation(accounts: number, processes: number, runners: number): fc.Arbitrary<MoneyOperation> {
  const account = fc.nat({ max: accounts - 1 });
  const card = fc.constantFrom('good' as const, 'declining' as const);
  // One process per click or call: one to three at once (double and triple clicks, bursts).
  const at = fc.array(fc.nat({ max: processes - 1 }), { minLength: 1, maxLength: 3 });
  const runnerSet = fc.uniqueArray(fc.nat({ max: runners - 1 }), { minLength: 1, maxLength: runners });
  const kinds = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('deposit' as const),
        account,
        card: fc.constantFrom(...(['default', 'default', 'default', 'default', 'other'] as const)),
        amount: fc.integer({ min: 1, max: 60 }),
        key: fc.constantFrom(...(['new', 'new', 'new', 'repeat', 'conflict'] as const)),
        pick: fc.nat(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('set default card' as const), account, card }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('auto pay on/off' as const), account, on: fc.boolean() }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('auto pay limits' as const),
        account,
        minBalance: fc.integer({ min: 1, max: 80 }),
        amount: fc.integer({ min: 1, max: 60 }),
      }),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('jobs run' as const),
        job: fc.constantFrom('autopay' as const, 'autopay' as const, 'billing' as const, 'reconcile' as const),
        runners: runnerSet,
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('gateway calls' as const), account }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('usage metered' as const),
        account,
        usage: fc.integer({ min: 1, max: 100_000 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('redeem welcome credit' as const), account }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('new account with welcome credit' as const) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('manual deposit' as const),
        account,
        cents: fc.integer({ min: 1, max: 5000 }),
      }),
    },
  );
  return fc
    .tuple(kinds, at, fc.integer({ min: 0, max: 25 }))
    .map(([operation, processesAt, delayMs]) => ({ ...operation, at: processesAt, delayMs }));
}

interface DepositRequest {
  key: string;
  cardId: string;
  amount: number;
}

/** What the test did and what it was told, to hold the database to afterwards. */
export class MoneyModel {
  readonly operations: Record<string, number> = {};
  /** One-time deposits answered 200, per account and idempotency key: the amount and transaction. */
  readonly paid = new Map<string, Map<string, { amount: number; transactionId: string }>>();
  readonly requests = new Map<string, DepositRequest[]>();
  readonly manualCents = new Map<string, number>();
  readonly meteredCalls = new Map<string, number>();
  readonly insertedUsage = new Map<string, number>();
  /** Auto pay limit changes and usage: each may start a new crossing below the threshold. */
  readonly crossings = new Map<string, number>();
  readonly welcomed = new Map<string, number>();
  /** The card each account was last told to charge by default. */
  readonly defaultCard = new Map<string, 'good' | 'declining'>();
  readonly newAccounts: { userId: string; accountId: string; owner: PersonClient }[] = [];
  depositRequests = 0;
  /** Deposit answers by HTTP status: paid, declined (402), refused (400). */
  readonly depositAnswers: Record<number, number> = {};
  /** Answers the rules do not allow: a server error, a refusal with the wrong words. */
  readonly unexpected: string[] = [];

  add(map: Map<string, number>, key: string, n: number): void {
    map.set(key, (map.get(key) ?? 0) + n);
  }
}

let keys = 0;
const freshKey = () => `money-${process.pid}-${++keys}-${Math.random().toString(36).slice(2, 10)}`;
const YESTERDAY = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/** Runs one operation against the cluster, recording in the model what was answered. */
export async function runOperation(
  cluster: MoneyCluster,
  accounts: PayingAccount[],
  model: MoneyModel,
  op: MoneyOperation,
): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, op.delayMs));
  model.operations[op.kind] = (model.operations[op.kind] ?? 0) + 1;
  const urls = op.at.map((i) => cluster.processes[i % cluster.processes.length]?.url ?? '');
  const expect = (ok: boolean, what: string) => {
    if (!ok) model.unexpected.push(`${op.kind}: ${what}`);
  };

  if (op.kind === 'jobs run') {
    await Promise.all(
      op.runners.map(async (i) => {
        const runner = cluster.runners[i % cluster.runners.length];
        if (!runner) return;
        const { json } = await runCommand(runner.db, ['jobs', 'run', op.job], runner.jobs);
        const result = (json as { result: unknown }).result as { errors?: string[] } | number;
        expect(typeof result === 'number' || (result.errors ?? []).length === 0, JSON.stringify(result));
      }),
    );
    return;
  }
  if (op.kind === 'new account with welcome credit') {
    const person = new PersonClient(urls[0] ?? '');
    const { userId } = await person.signUp();
    const draft = await person.post<AccountSummary>('/api/v1.0/account', { accountName: HIDDEN_ACCOUNT_NAME });
    const accountId = draft.body.data.id;
    const accountName = `welcomed ${++keys}`;
    // The wizard's Create, clicked once per process named, each reaching a process of its own.
    const answers = await Promise.all(
      urls.map((url) =>
        person.at(url).post<AccountSummary>('/api/v1.0/account/finishCreateAccountProcess', {
          accountId,
          accountName,
          redeemWelcomeCredit: true,
        }),
      ),
    );
    // A retried finish answers the account it made.
    for (const a of answers) expect(a.status === 200 && a.body.data.id === accountId, `${a.status} ${a.body.message}`);
    model.add(model.welcomed, userId, 1);
    model.newAccounts.push({ userId, accountId, owner: person });
    return;
  }

  const target = accounts[op.account % accounts.length];
  if (!target) return;
  const h = { 'ebs-account-id': target.accountId };
  const person = (i: number) => target.owner.at(urls[i % urls.length] ?? '');
  const cardOf = (which: 'default' | 'other') => {
    const current = model.defaultCard.get(target.accountId) ?? 'good';
    return which === 'default' ? current : current === 'good' ? 'declining' : 'good';
  };

  switch (op.kind) {
    case 'deposit': {
      const earlier = model.requests.get(target.accountId) ?? [];
      const previous = earlier[op.pick % Math.max(1, earlier.length)];
      const request: DepositRequest =
        op.key === 'new' || !previous
          ? { key: freshKey(), cardId: target.cards[cardOf(op.card)], amount: op.amount }
          : op.key === 'repeat'
            ? previous
            : { ...previous, amount: previous.amount + 1 };
      earlier.push(request);
      model.requests.set(target.accountId, earlier);
      model.depositRequests += urls.length;
      const answers = await Promise.all(
        urls.map((_, i) =>
          person(i).post<{ transactionId: string; amount: number }>(
            '/api/v1.0/payment/card/deposit',
            { cardId: request.cardId, depositAmount: request.amount },
            { ...h, 'idempotency-key': request.key },
          ),
        ),
      );
      const paid = model.paid.get(target.accountId) ?? new Map();
      model.paid.set(target.accountId, paid);
      for (const a of answers) {
        model.depositAnswers[a.status] = (model.depositAnswers[a.status] ?? 0) + 1;
        if (a.status === 200) {
          const first = paid.get(request.key);
          expect(
            !first || (first.transactionId === a.body.data.transactionId && first.amount === a.body.data.amount),
            `key ${request.key} answered ${JSON.stringify(a.body.data)} after ${JSON.stringify(first)}`,
          );
          if (!first) paid.set(request.key, { amount: a.body.data.amount, transactionId: a.body.data.transactionId });
        } else if (a.status === 402) {
          expect(request.cardId === target.cards.declining, `the paying card was declined: ${a.body.message}`);
        } else {
          expect(
            a.status === 400 && [Messages.setDefaultCard, Messages.idempotencyReused].some((m) => m === a.body.message),
            `${a.status} ${a.body.message}`,
          );
        }
      }
      return;
    }
    case 'set default card': {
      const a = await person(0).post('/api/v1.0/payment/card/default', { cardId: target.cards[op.card] }, h);
      expect(a.status === 200, `${a.status} ${a.body.message}`);
      model.defaultCard.set(target.accountId, op.card);
      return;
    }
    case 'auto pay on/off':
    case 'auto pay limits': {
      const fields =
        op.kind === 'auto pay on/off'
          ? { autoDepositEnabled: op.on }
          : { minBalance: op.minBalance, autoDepositAmount: op.amount };
      const a = await person(0).post(
        '/api/v1.0/account/updateAccountSettings',
        { settingName: 'autoDeposit', fields },
        h,
      );
      expect(a.status === 200, `${a.status} ${a.body.message}`);
      if (op.kind === 'auto pay limits') model.add(model.crossings, target.accountId, 1);
      return;
    }
    case 'gateway calls': {
      const answers = await Promise.all(
        urls.map(async (url) => {
          const response = await fetch(rpcUrl(url, METERED_NETWORK, target.keyId, target.key), {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
          });
          await response.text();
          return response.status;
        }),
      );
      // A suspended account is refused (403) and not metered.
      for (const status of answers) expect(status === 200 || status === 403, `gateway answered ${status}`);
      model.add(model.meteredCalls, target.accountId, answers.filter((s) => s === 200).length);
      model.add(model.crossings, target.accountId, 1);
      return;
    }
    case 'usage metered': {
      // As the gateway's flush writes it: yesterday's usage, which the schedule bills too.
      await addUsage(cluster.db, [
        {
          accountId: target.accountId,
          apiKeyId: target.keyId,
          resource: METERED_RESOURCE,
          date: YESTERDAY(),
          usage: op.usage,
        },
      ]);
      await refreshBillingStatus(cluster.db, target.accountId);
      model.add(model.insertedUsage, target.accountId, op.usage);
      model.add(model.crossings, target.accountId, 1);
      return;
    }
    case 'redeem welcome credit': {
      const answers = await Promise.all(
        urls.map((_, i) =>
          person(i).post('/api/v1.0/account/redeemBonus', { accountId: target.accountId, type: 'WELCOME_CREDIT' }, h),
        ),
      );
      for (const a of answers) {
        if (a.status === 200) model.add(model.welcomed, target.userId, 1);
        else
          expect(
            a.status === 400 && a.body.message === Messages.welcomeCreditRedeemed,
            `${a.status} ${a.body.message}`,
          );
      }
      return;
    }
    case 'manual deposit': {
      // The admin command line, from as many runners as processes named, each its own deposit.
      await Promise.all(
        urls.map(async (_, i) => {
          const runner = cluster.runners[i % cluster.runners.length];
          if (!runner) return;
          const amount = (op.cents / 100).toFixed(2);
          await runCommand(runner.db, [
            'deposit',
            '--account',
            target.accountId,
            '--amount',
            amount,
            '--note',
            'goodwill',
          ]);
          model.add(model.manualCents, target.accountId, op.cents);
        }),
      );
      return;
    }
  }
}
