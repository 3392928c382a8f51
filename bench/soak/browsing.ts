// The console's share of the soak: signed-in people moving between the overview, billing,
// transactions, usage and keys pages (the calls the web app makes for each), paging through their
// tables, now and then making a key and deleting it, paying by card, refreshing their session and
// signing in again.
import { randomUUID } from 'node:crypto';
import type { CreatedApiKey } from '@ebs/contract';
import { lastDays, monthToDate } from '../support/console-calls.ts';
import type { Gateway } from './gateway-traffic.ts';
import { deposit, NETWORKS, type SoakAccount, type SoakUser } from './seed.ts';
import { type Tally, timed } from './tally.ts';

const PAGE = 10;
/** Seconds between a person's page views, and between their rarer actions. */
const THINK_SECONDS = [1, 3] as const;
const REFRESH_SECONDS = 60;
const SIGN_IN_AGAIN_SECONDS = 180;
// A key every 2.5 to 7.5 minutes, about 12 an hour: with the two seeded keys, well under the 20
// an account may create in an hour, however long the soak runs.
const KEY_CHURN_SECONDS = 300;
const DEPOSIT_SECONDS = 60;

type Query = Record<string, string | number | undefined>;

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const between = ([low, high]: readonly [number, number]) => (low + Math.random() * (high - low)) * 1000;

export interface ConsoleCounts {
  /** One-time deposits the console answered as completed, per account. */
  deposits: Map<string, number>;
  keysMade: number;
  pageViews: number;
}

class Person {
  private nextRefresh = Date.now() + REFRESH_SECONDS * 1000;
  private nextSignIn = Date.now() + between([SIGN_IN_AGAIN_SECONDS / 2, SIGN_IN_AGAIN_SECONDS]);
  private nextKey = Date.now() + between([5, KEY_CHURN_SECONDS]);
  private nextDeposit = Date.now() + between([10, DEPOSIT_SECONDS]);

  constructor(
    private readonly user: SoakUser,
    private readonly tally: Tally,
    private readonly gateway: Gateway,
    private readonly counts: ConsoleCounts,
  ) {}

  /** One call; anything but the expected status (or no answer at all) is an error. Answers the data. */
  private async call<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options: {
      account?: string;
      query?: Query;
      body?: unknown;
      headers?: Record<string, string>;
      expect?: number;
    } = {},
  ): Promise<T | undefined> {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) params.append(k, String(v));
    const url = `${path}${params.size ? `?${params}` : ''}`;
    const headers = {
      ...options.headers,
      ...(options.account === undefined ? {} : { 'ebs-account-id': options.account }),
    };
    const expected = options.expect ?? 200;
    try {
      const { value, ms } = await timed(() => this.user.client.call<T>(method, url, { body: options.body, headers }));
      if (value.status !== expected) {
        this.tally.fail(
          `console ${method} ${url}: HTTP ${value.status} (${expected} expected) ${value.body?.message}`,
          ms,
        );
        return undefined;
      }
      this.tally.ok(ms);
      return value.body.data;
    } catch (error) {
      this.tally.fail(`console ${method} ${url}: ${(error as Error).message}`);
      return undefined;
    }
  }

  private get = <T>(path: string, account: string | undefined, query?: Query) =>
    this.call<T>('GET', path, { account, query });

  async overview(account: SoakAccount): Promise<void> {
    const a = account.id;
    const resources = await this.get<Array<{ resourceName: string }>>('/api/v1.0/usage/api/billing/resource', a);
    const month = monthToDate();
    await Promise.all([
      this.get('/api/v1.0/account/details', a),
      this.get('/api/v1.0/usage/api/billing', a, {
        accountId: a,
        ...lastDays(7),
        resourceNameIn: JSON.stringify((resources ?? []).map((r) => r.resourceName)),
        limit: 100,
        offset: 0,
        order: 'asc',
      }),
      this.get('/api/v1.0/transaction', a, {
        limit: 1000,
        offset: 0,
        ...month,
        typeIn: JSON.stringify(['WITHDRAW_RESOURCE_USAGE']),
      }),
      this.get('/api/v1.0/usage/api/billing', a, { accountId: a, ...month, limit: 1000, offset: 0, order: 'desc' }),
    ]);
  }

  async billing(account: SoakAccount): Promise<void> {
    const a = account.id;
    await Promise.all([
      this.get('/api/v1.0/account/details', a),
      this.get('/api/v1.0/payment/card', a),
      this.get('/api/v1.0/transaction/type', undefined),
      this.transactions(account),
    ]);
  }

  /** The Transaction History table: first page, then a page further on, sorted or filtered now and then. */
  async transactions(account: SoakAccount): Promise<void> {
    const a = account.id;
    const first = await this.get<{ totalCount: number }>('/api/v1.0/transaction', a, { limit: PAGE, offset: 0 });
    const pages = Math.max(1, Math.ceil((first?.totalCount ?? 0) / PAGE));
    await this.get('/api/v1.0/transaction', a, {
      limit: PAGE,
      offset: Math.floor(Math.random() * pages) * PAGE,
      ...pick([
        {},
        { sortBy: 'amount', order: 'asc' },
        { typeIn: JSON.stringify(['DEPOSIT_ONE_TIME', 'DEPOSIT_AUTO']) },
      ]),
    });
  }

  /** The Service Usage History table, newest first, at a page of its range. */
  async usage(account: SoakAccount): Promise<void> {
    const a = account.id;
    const query = { accountId: a, limit: PAGE, order: 'desc' };
    const first = await this.get<{ totalCount: number }>('/api/v1.0/usage/api/billing', a, { ...query, offset: 0 });
    const pages = Math.max(1, Math.ceil((first?.totalCount ?? 0) / PAGE));
    await this.get('/api/v1.0/usage/api/billing', a, { ...query, offset: Math.floor(Math.random() * pages) * PAGE });
  }

  async keys(account: SoakAccount): Promise<void> {
    await this.get('/api/v1.0/key', account.id, { limit: 100, offset: 0 });
  }

  async accounts(): Promise<void> {
    await Promise.all([
      this.get('/api/v1.0/user', undefined),
      this.get('/api/v1.0/account', '', { limit: 100, offset: 0 }),
    ]);
  }

  /** A key made, used for a few calls, switched off and deleted, as a person trying the gateway does. */
  private async keyChurn(account: SoakAccount): Promise<void> {
    const made = await this.call<CreatedApiKey>('POST', '/api/v1.0/key/', {
      account: account.id,
      body: { apiKeyName: `try ${randomUUID().slice(0, 6)}` },
    });
    if (!made) return;
    this.counts.keysMade++;
    const { keyId, key: secret } = made.key;
    await this.keys(account);
    for (let i = 0; i < 3; i++) await this.gateway.send({ keyId, secret, network: pick(NETWORKS) }, 1);
    await this.call('POST', `/api/v1.0/key/${keyId}/deactivate`, { account: account.id });
    await this.call('DELETE', `/api/v1.0/key/${keyId}`, { account: account.id });
  }

  private async payByCard(account: SoakAccount): Promise<void> {
    const started = performance.now();
    try {
      const answer = await deposit(this.user.client, account, 5);
      const ms = performance.now() - started;
      if (answer.status === (account.paying ? 200 : 402)) {
        this.tally.ok(ms);
        if (answer.status === 200)
          this.counts.deposits.set(account.id, (this.counts.deposits.get(account.id) ?? 0) + 1);
      } else this.tally.fail(`console deposit on ${account.name}: HTTP ${answer.status} ${answer.body?.message}`, ms);
    } catch (error) {
      this.tally.fail(`console deposit on ${account.name}: ${(error as Error).message}`);
    }
  }

  private async session(): Promise<void> {
    const now = Date.now();
    if (now >= this.nextSignIn) {
      this.nextSignIn = now + between([SIGN_IN_AGAIN_SECONDS / 2, SIGN_IN_AGAIN_SECONDS]);
      this.nextRefresh = now + REFRESH_SECONDS * 1000;
      await this.call('POST', '/auth/sign-out');
      this.user.client.idToken = '';
      const session = await this.call<{ idToken: string }>('POST', '/auth/sign-in', {
        body: { email: this.user.email, password: this.user.password },
      });
      if (session) this.user.client.idToken = session.idToken;
    } else if (now >= this.nextRefresh) {
      this.nextRefresh = now + REFRESH_SECONDS * 1000;
      const session = await this.call<{ idToken: string }>('POST', '/auth/refresh');
      if (session) this.user.client.idToken = session.idToken;
    }
  }

  /** Page after page, with the rarer actions when their time comes, until `running()` turns false. */
  async browse(running: () => boolean): Promise<void> {
    while (running()) {
      await this.session();
      const account = pick(this.user.accounts);
      const now = Date.now();
      if (now >= this.nextKey && account.paying) {
        this.nextKey = now + between([KEY_CHURN_SECONDS / 2, KEY_CHURN_SECONDS * 1.5]);
        await this.keyChurn(account);
      } else if (now >= this.nextDeposit) {
        this.nextDeposit = now + between([DEPOSIT_SECONDS / 2, DEPOSIT_SECONDS * 1.5]);
        await this.payByCard(account);
      } else {
        const page = pick(['overview', 'billing', 'transactions', 'usage', 'keys', 'accounts'] as const);
        if (page === 'accounts') await this.accounts();
        else await this[page](account);
        this.counts.pageViews++;
      }
      await sleep(between(THINK_SECONDS));
    }
  }
}

/** Every user browses at once until `running()` turns false; resolves when they all stopped. */
export function browse(users: SoakUser[], tally: Tally, gateway: Gateway, running: () => boolean) {
  const counts: ConsoleCounts = { deposits: new Map(), keysMade: 0, pageViews: 0 };
  const done = Promise.all(users.map((user) => new Person(user, tally, gateway, counts).browse(running)));
  return { counts, done };
}
