import { parseArgs } from 'node:util';
import { AddPaymentCardSetting, DepositSetting, normalizeEmail, type Setting } from '@ebs/contract';
import { Value } from '@sinclair/typebox/value';
import type { Db } from '../db/database.ts';
import type { Jobs } from '../jobs/scheduler.ts';
import { accountExists, listAccountsWithOwners, setFeature } from '../modules/accounts/index.ts';
import { grantAmbassador } from '../modules/ambassador/index.ts';
import { findUserByEmail, findUserNames, isMfaEnabled, turnOffTwoFactor } from '../modules/identity/index.ts';
import { insertTransaction, parseAmount } from '../modules/ledger/index.ts';
import { ProcessorError, refundLocalCharge } from '../modules/processor/index.ts';
import { FaucetRefusal, type RpcGateway } from '../modules/rpc/index.ts';
import { findSetting, saveSetting } from '../modules/settings/index.ts';
import { isPriceVerb, PriceCommandError, runPriceCommand } from '../modules/usage/index.ts';

export interface CommandResult {
  /** What a person reads. */
  text: string;
  /** What a script reads with --json. */
  json: unknown;
}

export class CommandError extends Error {}

export const HELP = `Usage: npm run admin -- <command> [options] [--json]

Commands:
  accounts list                                         every account with its owner, status and balance
  feature enable|disable TOKEN_FORWARDING --account ID  turn an account feature on or off
  ambassador grant --email E --rate R                   make a user an ambassador (R a fraction, 0.1 = 10 %)
  mfa disable --email E                                 turn two-factor sign-in off for a user who lost the
                                                        app and every recovery code (sessions stay)
  deposit --account ID --amount N --note TEXT           credit N USD to an account (ADMIN_MANUAL_DEPOSIT)
  charge refund --charge ID [--amount N]                refund a local card processor charge (ch_…, the end of
                                                        its receipt link), all that is left or N USD; the
                                                        ledger takes it back (REFUND_CARD_DEPOSIT)
  setting set DEPOSIT --json '{"minAmount":5}'          change a product setting (the whole value)
  setting set ADD_PAYMENT_CARD --json '{"mandatory":true}'
  price set RESOURCE USD                                an RPC_API_* resource's price in USD per million compute
                                                        units (e.g. 20), a TOKEN_FORWARDING_* one's per forward
  price cu CLASS|cached|METHOD N|default                the compute units of a price class, of a call answered
                                                        from the cache, or of one method (e.g. eth_call);
                                                        default removes the operator's units
  price list                                            each network's USD per million compute units, the
                                                        forwarding fee, each class's units and methods' own
  chain fund --network PATH --address 0x… --amount N     send N test coins to an address on a local chain of the
                                                        embedded default (e.g. --network ethereum/sepolia)
  rpc cache                                             the gateway's response cache per network: hits,
                                                        misses, hit rate, size, reorg flushes (the running
                                                        server's, with PGlite)
  rpc upstreams                                         each network's nodes: state (up, lagging, limited, down),
                                                        head and lag, calls in flight, p50/p95 ms, calls and
                                                        errors over the last minute, retries and hedges
  rpc subscriptions                                     the WebSocket subscriptions per network: the node's
                                                        socket, upstream subscriptions, client subscriptions
  rpc insight [on|off]                                  whether the gateway records its analytics and request
                                                        log, or switch it until a restart (RPC_INSIGHT)
  jobs run billing|autopay|alerts|reconcile|ambassadors|cleanup|forwarding|webhooks
                                                        run a job now (billing: usage up to now)
  backup [--out FILE]                                   a consistent copy of the embedded database and of
                                                        DATA_DIR/secrets.json (mode 0600). It holds the keys
                                                        of every forwarding wallet: keep it as safe as them
  restore --from FILE [--yes]                           replace the embedded database by a backup (stop the
                                                        server first); the current data is moved aside
  --help                                                this text

With PGlite (no DATABASE_URL) the command runs through the running server, or directly
on DATA_DIR when no server runs. With DATABASE_URL it runs on PostgreSQL, where backup and
restore print the pg_dump and pg_restore commands to use instead.`;

const FEATURES = new Set(['TOKEN_FORWARDING']);
const SETTINGS = { DEPOSIT: DepositSetting, ADD_PAYMENT_CARD: AddPaymentCardSetting } as const;

/** `setting set NAME --json '{...}'`: the value follows --json, which is otherwise the output flag. */
function settingValue(
  name: string | undefined,
  raw: string | undefined,
): { name: keyof typeof SETTINGS; value: Setting['settings'] } {
  if (!name || !(name in SETTINGS))
    throw new CommandError(`Unknown setting "${name ?? ''}". Known: ${Object.keys(SETTINGS).join(', ')}`);
  const schema = SETTINGS[name as keyof typeof SETTINGS];
  let value: unknown;
  try {
    value = JSON.parse(raw ?? '');
  } catch {
    throw new CommandError(
      `--json must be the setting's value as JSON, e.g. ${name === 'DEPOSIT' ? '{"minAmount":5}' : '{"mandatory":true}'}`,
    );
  }
  const error = Value.Errors(schema, value).First();
  if (error) throw new CommandError(`Invalid ${name} value: ${error.path || 'value'} ${error.message.toLowerCase()}`);
  return { name: name as keyof typeof SETTINGS, value: value as Setting['settings'] };
}

/** `accounts list`: every account, oldest first, with its owner's e-mail, status and balance. */
async function operatorAccounts(db: Db) {
  const rows = await listAccountsWithOwners(db);
  const users = await findUserNames(
    db,
    rows.map((r) => r.ownerId),
  );
  const emails = new Map(users.map((u) => [u.id, u.email]));
  return rows.flatMap((r) => {
    const owner = emails.get(r.ownerId);
    if (owner === undefined) return [];
    return [
      { id: r.id, name: r.name, owner, status: r.isBillingApiEnabled ? 'ACTIVE' : 'SUSPENDED', balance: r.balance },
    ];
  });
}

async function existingAccount(db: Db, accountId: string | undefined): Promise<string> {
  if (!accountId || !/^[0-9a-f-]{36}$/i.test(accountId)) throw new CommandError('--account must be an account id');
  if (!(await accountExists(db, accountId))) throw new CommandError(`No account ${accountId}`);
  return accountId;
}

/** `charge refund`: the local processor's refund, written to the ledger as Stripe's refunds are. */
async function refundCharge(
  db: Db,
  chargeId: string | undefined,
  amountText: string | undefined,
): Promise<CommandResult> {
  if (!chargeId || !/^ch_[A-Za-z0-9]{1,64}$/.test(chargeId)) {
    throw new CommandError('--charge must be a local card processor charge id (ch_…)');
  }
  let amount: string | undefined;
  try {
    amount = amountText === undefined ? undefined : parseAmount(amountText);
  } catch (error) {
    throw new CommandError((error as Error).message);
  }
  try {
    const refund = await refundLocalCharge(db, chargeId, amount);
    const ledger =
      refund.ledger.status === 'unknown-charge'
        ? 'no completed deposit was paid by this charge: the ledger is unchanged'
        : `account ${refund.ledger.accountId}: ${refund.ledger.transactionIds.length} ledger row(s) written`;
    return {
      text: `Refunded ${refund.amount} USD of charge ${chargeId} (refund ${refund.refundId}, ${refund.refundedTotal} USD in all); ${ledger}`,
      json: refund,
    };
  } catch (error) {
    // With CARD_PROVIDER=stripe, refunds are made at Stripe, whose charge.refunded event reaches the ledger.
    if (error instanceof ProcessorError) throw new CommandError(error.message);
    throw error;
  }
}

export async function runCommand(
  db: Db,
  argv: string[],
  jobs: Jobs = {},
  chains?: Pick<RpcGateway, 'fundLocal' | 'cacheFigures' | 'subscriptionFigures' | 'upstreamFigures' | 'insight'>,
): Promise<CommandResult> {
  const { positionals, values } = parseArgs({
    // --json=VALUE is read as the flag followed by its value (see settingValue).
    args: argv.flatMap((a) => (a.startsWith('--json=') ? ['--json', a.slice(7)] : [a])),
    allowPositionals: true,
    options: {
      account: { type: 'string' },
      email: { type: 'string' },
      rate: { type: 'string' },
      amount: { type: 'string' },
      note: { type: 'string' },
      charge: { type: 'string' },
      network: { type: 'string' },
      address: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const [noun, verb, arg, rest] = positionals;

  if (noun === 'accounts' && verb === 'list') {
    const accounts = await operatorAccounts(db);
    const text = accounts.length
      ? accounts
          .map((a) => `${a.id}  ${a.status.padEnd(9)}  ${a.balance.padStart(14)}  ${a.owner}  ${a.name}`)
          .join('\n')
      : 'No accounts.';
    return { text, json: accounts };
  }

  if (noun === 'feature' && (verb === 'enable' || verb === 'disable')) {
    if (!arg || !FEATURES.has(arg))
      throw new CommandError(`Unknown feature "${arg ?? ''}". Known: ${[...FEATURES].join(', ')}`);
    const accountId = await existingAccount(db, values.account);
    await setFeature(db, accountId, arg, verb === 'enable');
    return {
      text: `${arg} ${verb}d for account ${accountId}`,
      json: { accountId, featureName: arg, enabled: verb === 'enable' },
    };
  }

  if (noun === 'ambassador' && verb === 'grant') {
    const rate = Number(values.rate);
    if (!values.email) throw new CommandError('--email is required');
    if (!values.rate || !Number.isFinite(rate) || rate <= 0 || rate > 1) {
      throw new CommandError('--rate must be a fraction above 0 and at most 1 (0.1 = 10 %)');
    }
    const ambassador = await grantAmbassador(db, values.email, values.rate);
    if (!ambassador) throw new CommandError(`No user ${values.email}`);
    return {
      text: `${values.email} is an ambassador: code ${ambassador.code}, rate ${ambassador.rewardRate}`,
      json: ambassador,
    };
  }

  if (noun === 'mfa' && verb === 'disable') {
    if (!values.email) throw new CommandError('--email is required');
    const email = normalizeEmail(values.email);
    const user = await findUserByEmail(db, email);
    if (!user) throw new CommandError(`No user ${values.email}`);
    const wasEnabled = await isMfaEnabled(db, user.id);
    // Also forgets a secret set up but never confirmed, so a new setup starts clean.
    await turnOffTwoFactor(db, user.id);
    return {
      text: wasEnabled
        ? `Two-factor sign-in is off for ${email}: the authenticator secret and recovery codes are forgotten`
        : `Two-factor sign-in was already off for ${email}`,
      json: { email, mfaEnabled: false, wasEnabled },
    };
  }

  if (noun === 'deposit' && verb === undefined) {
    const accountId = await existingAccount(db, values.account);
    let amount: string;
    try {
      amount = parseAmount(values.amount);
    } catch (error) {
      throw new CommandError((error as Error).message);
    }
    const note = values.note?.trim();
    if (!note || note.length > 500)
      throw new CommandError('--note is required (up to 500 characters): why the deposit is made');
    const transactionId = await insertTransaction(db, {
      accountId,
      type: 'ADMIN_MANUAL_DEPOSIT',
      amount,
      status: 'COMPLETED',
      metadata: { note },
    });
    return {
      text: `Deposited ${amount} USD to account ${accountId} (transaction ${transactionId})`,
      json: { transactionId, accountId, amount, note },
    };
  }

  if (noun === 'charge' && verb === 'refund') return refundCharge(db, values.charge, values.amount);

  if (noun === 'setting' && verb === 'set') {
    const { name, value } = settingValue(arg, rest);
    await saveSetting(db, name, value);
    const saved = await findSetting(db, name);
    return { text: `${name} is now ${JSON.stringify(saved?.settings)}`, json: saved };
  }

  if (noun === 'price' && isPriceVerb(verb)) {
    try {
      return await runPriceCommand(db, verb, arg, rest);
    } catch (error) {
      if (error instanceof PriceCommandError) throw new CommandError(error.message);
      throw error;
    }
  }

  if (noun === 'chain' && verb === 'fund' && chains) {
    try {
      const funded = await chains.fundLocal(values.network, values.address, values.amount);
      return {
        text: `Sent ${funded.amount} to ${funded.address} on ${funded.network} (transaction ${funded.transactionHash}); it holds ${funded.balance} now`,
        json: funded,
      };
    } catch (error) {
      if (error instanceof FaucetRefusal) throw new CommandError(error.message);
      throw error;
    }
  }

  if (noun === 'rpc' && verb === 'cache' && chains) {
    const figures = chains.cacheFigures();
    const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    const text = figures
      .map(
        (f) =>
          `${f.network.padEnd(17)} ${`${(f.hitRate * 100).toFixed(1)} %`.padStart(7)} hit  ${f.hits} hits, ${f.misses} misses, ${f.entries} answers, ${mib(f.bytes)} of ${mib(f.maxBytes)} MiB, ${f.flushes} reorg flushes`,
      )
      .join('\n');
    return { text: text || 'The response cache is off (RPC_CACHE_MB=0).', json: figures };
  }

  if (noun === 'rpc' && verb === 'upstreams' && chains) {
    const figures = chains.upstreamFigures().map(({ nodes, ...network }) => ({
      ...network,
      nodes: nodes.map(({ latency: _latency, ...node }) => node),
    }));
    const text = figures
      .map(({ network, retries, hedges, nodes }) =>
        [
          `${network}: ${retries} retries, ${hedges} hedges since start`,
          ...nodes.map(
            (n) =>
              `  ${n.upstream}${n.archive ? ' (archive)' : ''}${n.weight === 1 ? '' : ` weight ${n.weight}`}  ${n.state.padEnd(7)} head ${n.head ?? 'unknown'}, lag ${n.lag}, ${n.inFlight} in flight, p50 ${n.p50Ms} ms, p95 ${n.p95Ms} ms, last minute ${n.callsLastMinute} calls, ${n.errorsLastMinute} errors; ${n.selected} calls, ${n.retries} retried elsewhere, ${n.hedges} hedged since start`,
          ),
        ].join('\n'),
      )
      .join('\n');
    return { text: text || 'No network has been called yet: its nodes start with its first call.', json: figures };
  }

  if (noun === 'rpc' && verb === 'subscriptions' && chains) {
    const figures = chains.subscriptionFigures();
    const text = figures
      .map(
        (f) =>
          `${f.network.padEnd(17)} node socket ${f.upstreamConnected ? 'open' : 'closed'}, ${f.upstreamSubscriptions} upstream subscriptions for ${f.clientSubscriptions} client subscriptions`,
      )
      .join('\n');
    return { text: text || 'No WebSocket subscription has been made.', json: figures };
  }

  if (noun === 'rpc' && verb === 'insight' && chains) {
    if (arg !== undefined && arg !== 'on' && arg !== 'off') throw new CommandError(`Say "on" or "off" (got "${arg}")`);
    if (arg) chains.insight.enabled = arg === 'on';
    const on = chains.insight.enabled;
    return {
      text: `The gateway's analytics and request log are ${on ? 'on' : 'off'}${arg ? ' until the server restarts (RPC_INSIGHT sets them at start)' : ''}.`,
      json: { insight: on },
    };
  }

  if (noun === 'jobs' && verb === 'run') {
    const job = arg ? jobs[arg] : undefined;
    if (!arg || !job) throw new CommandError(`Unknown job "${arg ?? ''}". Known: ${Object.keys(jobs).join(', ')}`);
    const result = await job();
    return { text: `${arg}: ${JSON.stringify(result)}`, json: { job: arg, result } };
  }

  throw new CommandError(`Unknown command "${positionals.join(' ')}".\n\n${HELP}`);
}
