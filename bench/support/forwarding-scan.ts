// The forwarding scanner at scale: many enabled wallets on one network, a local Anvil node as the
// network's upstream reached through the app's own RPC gateway, a few wallets funded on chain.
import { ERC20_TOKEN, FORWARDING_NETWORKS, MULTICALL3_ADDRESS, type Network } from '@ebs/contract';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { formatUnits, parseEther, parseUnits } from 'viem';
import { loadConfig } from '../../apps/server/src/config.ts';
import type { Db } from '../../apps/server/src/db/database.ts';
import { memoryRateLimiter } from '../../apps/server/src/http/rate-limit.ts';
import { outboxMailer } from '../../apps/server/src/mail/mailer.ts';
import { gatewayAccounts } from '../../apps/server/src/modules/accounts/billing-status.ts';
import type { ChainRpc } from '../../apps/server/src/modules/forwarding/chain.ts';
import { localSender } from '../../apps/server/src/modules/forwarding/forwarding.test-kit.ts';
import { buildForwarding } from '../../apps/server/src/modules/forwarding/forwarding.ts';
import { type ScanResult, scanWallets } from '../../apps/server/src/modules/forwarding/forwarding-scanner.ts';
import { RpcGateway } from '../../apps/server/src/modules/rpc/rpc.service.ts';
import { loadSecrets } from '../../apps/server/src/secrets.ts';
import { DEV_PRIVATE_KEY, startAnvil } from '../../apps/server/src/testing/anvil.ts';
import { deployTestToken } from '../../apps/server/src/testing/contracts/test-token.ts';
import { type SeededWallet, seedWallets } from './forwarding-wallets.ts';
import { type Cleanup, tempDir } from './stack.ts';

const NETWORK: Network = 'ETHEREUM_SEPOLIA';
const CHAIN_ID = 11_155_111;
const MINIMUM = '0.001';

/** One timed scan by one way of reading the chain. */
export interface TimedScan {
  reads: 'Multicall3' | 'JSON-RPC batches';
  seconds: number;
  /** HTTP requests to the node, and the JSON-RPC calls in them (a batch holds many). */
  requests: number;
  calls: number;
  result: ScanResult;
}

export interface ScanMeasurement {
  wallets: number;
  /** Seconds of the first scan (connections to the node opened, nothing funded yet), not judged. */
  warmUpSeconds: number;
  /** Through Multicall3 (the production path), then by JSON-RPC batches on the same wallets. */
  scans: TimedScan[];
  /** Wrong answers: the run's figures are not to be trusted when there is any. */
  problems: string[];
  setUpSeconds: { node: number; wallets: number; funding: number };
}

/** Funded on chain before the timed scan: which wallets, how much, and whether a forward must open. */
interface Deposit {
  wallet: SeededWallet;
  /** In the token's base units (18 decimals for both). */
  amount: bigint;
  opens: boolean;
}

const seconds = (since: number) => (performance.now() - since) / 1000;

/** The app's RPC gateway as the forwarding engine's ChainRpc, counting what is sent to the node. */
function countingRpc(rpc: RpcGateway) {
  const counts = { requests: 0, calls: 0 };
  const chainRpc: ChainRpc = {
    call(path, payload) {
      counts.requests += 1;
      counts.calls += Array.isArray(payload) ? payload.length : 1;
      return rpc.call(path, payload);
    },
    usesLocalNode: (path) => rpc.usesLocalNode(path),
    isAvailable: (path) => rpc.isAvailable(path),
  };
  return { chainRpc, counts };
}

/**
 * Seeds `count` wallets, scans once to warm up (nothing funded: nothing may open), funds a few
 * wallets (native and ERC-20, one of them below its minimum) and times one full scan through
 * Multicall3 and checks it: every wallet read and recorded, a forward opened for exactly the
 * funded ones at their balance. Then the same again by JSON-RPC batches, for comparison: its
 * forwards deleted first, Multicall3 taken off the node so that the scanner falls back to them.
 */
export async function measureScan(
  cleanup: Cleanup,
  db: Db,
  databaseUrl: string,
  count: number,
): Promise<ScanMeasurement> {
  let since = performance.now();
  const node = await startAnvil(CHAIN_ID);
  cleanup.add(() => node.stop());
  const token = await deployTestToken(node.url, DEV_PRIVATE_KEY, {
    name: 'Bench Token',
    symbol: 'BENCH',
    decimals: 18,
    supply: parseUnits('1000000', 18),
  });
  const info = FORWARDING_NETWORKS[NETWORK];
  if (info.kind !== 'evm') throw new Error(`${NETWORK} is not an EVM network`);
  const config = loadConfig({
    DATA_DIR: await tempDir(cleanup),
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    RPC_UPSTREAMS: JSON.stringify({ [info.rpcPath]: [node.url] }),
  });
  const log = Fastify({ logger: { level: 'warn' } }).log;
  const rpc = new RpcGateway(db, config, log, memoryRateLimiter(), gatewayAccounts);
  cleanup.add(() => rpc.close());
  const secrets = await loadSecrets(config);
  // The engine's own wiring (buildForwarding), once per way of reading: each has its chains' state.
  const engineChains = () => {
    const { chainRpc, counts } = countingRpc(rpc);
    const { chains } = buildForwarding({ db, config, secrets, rpc: chainRpc, mailer: outboxMailer(db, log), log });
    return { chains, counts };
  };
  const nodeSeconds = seconds(since);

  since = performance.now();
  const wallets = await seedWallets(db, {
    network: NETWORK,
    count,
    token,
    walletSeed: secrets.walletSeed,
    dataKey: secrets.dataKey,
    minimum: MINIMUM,
  });
  const walletsSeconds = seconds(since);

  const multicall = engineChains();
  since = performance.now();
  const warmUp = await scanWallets(db, multicall.chains);
  const warmUpSeconds = seconds(since);
  const problems: string[] = [];
  if (warmUp.opened !== 0 || warmUp.wallets !== count || warmUp.unreadable !== 0)
    problems.push(`warm-up scan of unfunded wallets: ${JSON.stringify(warmUp)}`);

  since = performance.now();
  const deposits = await fund(node.url, token, wallets);
  const funding = seconds(since);

  const scans: TimedScan[] = [];
  for (const reads of ['Multicall3', 'JSON-RPC batches'] as const) {
    const { chains, counts } = reads === 'Multicall3' ? multicall : engineChains();
    if (reads === 'JSON-RPC batches') {
      await db.deleteFrom('token_forwarding_transactions').execute();
      await sendToNode(node.url, 'anvil_setCode', [MULTICALL3_ADDRESS, '0x']);
    }
    const before = { ...counts };
    since = performance.now();
    const result = await scanWallets(db, chains);
    scans.push({
      reads,
      seconds: seconds(since),
      requests: counts.requests - before.requests,
      calls: counts.calls - before.calls,
      result,
    });
    problems.push(...(await checkScan(db, result, wallets, deposits)).map((p) => `${reads}: ${p}`));
  }
  return {
    wallets: count,
    warmUpSeconds,
    scans,
    problems,
    setUpSeconds: { node: nodeSeconds, wallets: walletsSeconds, funding },
  };
}

async function sendToNode(url: string, method: string, params: unknown[]): Promise<void> {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await answer.json()) as { error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
}

/** Sends native and token deposits to wallets spread over the list (first, middle, last pages). */
async function fund(url: string, token: `0x${string}`, wallets: SeededWallet[]): Promise<Deposit[]> {
  const sender = localSender(url, CHAIN_ID, DEV_PRIVATE_KEY);
  const pick = (fraction: number, erc20: boolean) => {
    const list = wallets.filter((w) => (w.contract !== null) === erc20);
    return list[Math.min(list.length - 1, Math.floor(fraction * list.length))] as SeededWallet;
  };
  const deposits: Deposit[] = [
    { wallet: pick(0, false), amount: parseEther('0.5'), opens: true },
    { wallet: pick(0.5, false), amount: parseEther('1.25'), opens: true },
    { wallet: pick(1, false), amount: parseEther('0.0005'), opens: false },
    { wallet: pick(0, true), amount: parseUnits('1234.5', 18), opens: true },
    { wallet: pick(0.37, true), amount: parseUnits('0.001', 18), opens: true },
    { wallet: pick(1, true), amount: parseUnits('42', 18), opens: true },
  ];
  for (const { wallet, amount } of deposits) {
    if (wallet.contract) await sender.sendToken(token, wallet.address, amount);
    else await sender.sendEth(wallet.address, formatUnits(amount, 18));
  }
  return deposits;
}

/** What the scan must have done, read back from the tables. */
async function checkScan(db: Db, result: ScanResult, wallets: SeededWallet[], deposits: Deposit[]): Promise<string[]> {
  const problems: string[] = [];
  const opening = deposits.filter((d) => d.opens);
  if (result.wallets !== wallets.length || result.unreadable !== 0 || result.opened !== opening.length)
    problems.push(
      `scan result ${JSON.stringify(result)}, expected ${wallets.length} wallets and ${opening.length} opened`,
    );
  const forwards = await db
    .selectFrom('token_forwarding_transactions')
    .select(['wallet_id', 'token', 'status', sql<string>`amount::text`.as('amount')])
    .execute();
  const want = new Map(opening.map((d) => [d.wallet.id, d]));
  if (forwards.length !== opening.length)
    problems.push(`${forwards.length} forwards opened, expected ${opening.length}`);
  for (const forward of forwards) {
    const deposit = want.get(forward.wallet_id);
    const token = deposit?.wallet.contract ? ERC20_TOKEN : 'ETH';
    if (!deposit || Number(forward.amount) !== Number(formatUnits(deposit.amount, 18)) || forward.token !== token)
      problems.push(`unexpected forward ${JSON.stringify(forward)}`);
  }
  const funded = new Map(deposits.map((d) => [d.wallet.id, Number(formatUnits(d.amount, 18))]));
  const balances = await sql<{ id: string; balance: string | null; checked: boolean }>`
    select id, balance::text as balance, balance_checked_at > now() - interval '1 minute' as checked
    from token_forwarding_wallets`.execute(db);
  const wrong = balances.rows.filter((w) => !w.checked || Number(w.balance) !== (funded.get(w.id) ?? 0));
  if (wrong.length > 0)
    problems.push(`${wrong.length} wallets with a wrong recorded balance, e.g. ${JSON.stringify(wrong[0])}`);
  return problems;
}
