import { forwardingResource, isNetwork } from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import { encodeFunctionData, erc20Abi, formatUnits, keccak256, type TransactionReceipt } from 'viem';
import type { Db } from '../../db/database.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { addUsage, utcDay } from '../usage/index.ts';
import type { ForwardingChain, ForwardingChains } from './chain.ts';
import { type ForwardPatch, type ForwardRow, recordStep, toTransaction } from './forwards.store.ts';
import { tellLowBalance } from './low-balance-notice.ts';
import type { WalletKeys } from './wallet-keys.ts';
import { gasWalletById, setGasBalance } from './wallets.store.ts';
import { webhookPayload } from './webhooks/test-webhook.ts';

const NATIVE_GAS = 21_000n;
/** How long to wait before looking at a forward again, by what it waits for. */
const WAIT = { receipt: 1, lowGas: 60, retry: 5 } as const;
/** A step that keeps failing (a node refusing the transaction) gives up after this many tries. */
const MAX_ATTEMPTS = 20;

export interface StepDeps {
  db: Db;
  chains: ForwardingChains;
  keys: WalletKeys;
  mailer: Mailer;
  log: FastifyBaseLogger;
  productName: string;
  /** Lease owner: this engine. */
  owner: string;
  /** Tests stop the engine here to play a crash between sending and recording it. */
  afterBroadcast?: (forwardId: string) => void;
}

class LeaseLost extends Error {}

/** Moves one leased forward on by as many steps as it can now; each step is recorded before the next. */
export async function advanceForward(deps: StepDeps, forward: ForwardRow): Promise<void> {
  if (!isNetwork(forward.network)) return;
  const chain = deps.chains.get(forward.network);
  const record = async (patch: ForwardPatch, next = 0) => {
    if (!(await recordStep(deps.db, forward.id, deps.owner, patch, next))) throw new LeaseLost();
    Object.assign(forward, patch);
  };
  try {
    for (let steps = 0; steps < 6; steps++) {
      const before = forward.status;
      switch (forward.status) {
        case 'PENDING':
          await start(deps, chain, forward, record);
          break;
        case 'FUNDING_GAS':
          await awaitGas(deps, chain, forward, record);
          break;
        case 'SENDING':
          await broadcast(deps, chain, forward, forward.raw_tx ?? '');
          await record({ status: 'CONFIRMING' }, WAIT.receipt);
          break;
        case 'CONFIRMING':
          await confirm(deps, chain, forward, record);
          break;
        default:
          return;
      }
      // A step that waits (next_step_at in the future) ends this turn.
      if (forward.status === before) return;
    }
  } catch (error) {
    if (error instanceof LeaseLost) return;
    const attempts = forward.attempts + 1;
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    deps.log.warn({ forward: forward.id, network: forward.network, attempts, reason: message }, 'forward step failed');
    await recordStep(
      deps.db,
      forward.id,
      deps.owner,
      attempts >= MAX_ATTEMPTS && forward.status === 'PENDING'
        ? { status: 'FAILED', error: message, attempts }
        : { error: message, attempts },
      WAIT.retry * Math.min(attempts, 12),
    );
  }
}

type RecordStep = (patch: ForwardPatch, next?: number) => Promise<void>;

async function walletOf(db: Db, id: string) {
  return db
    .selectFrom('token_forwarding_wallets')
    .select(['key_index', 'token_decimals', 'gas_fee_funding_wallet_id', 'webhook_url', 'account_id'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Sends a recorded transaction (again, when resumed), then gives the tests their crash point. */
async function broadcast(deps: StepDeps, chain: ForwardingChain, forward: ForwardRow, raw: string): Promise<void> {
  await chain.sendRaw(raw);
  deps.afterBroadcast?.(forward.id);
}

/** The first step: price the forward, fund its gas when it is an ERC-20 forward, or sign the transfer. */
async function start(deps: StepDeps, chain: ForwardingChain, forward: ForwardRow, record: RecordStep): Promise<void> {
  const wallet = await walletOf(deps.db, forward.wallet_id);
  const price = await chain.gasPrice();
  if (!forward.smart_contract_address) {
    const balance = await chain.nativeBalance(forward.from_address);
    const fee = NATIVE_GAS * price;
    if (balance <= fee) {
      // Dust above the minimum but below the fee: wait for more to arrive rather than fail each scan.
      await record({ error: 'The balance does not cover the network fee of the forward yet.' }, WAIT.lowGas);
      return;
    }
    const value = balance - fee;
    await signTransfer(
      deps,
      chain,
      forward,
      record,
      wallet.key_index,
      { to: forward.to_address, value, gas: NATIVE_GAS, price },
      formatUnits(value, 18),
    );
    return;
  }
  const transfer = await tokenTransfer(chain, forward);
  if (!transfer) {
    await record({ status: 'FAILED', error: 'The wallet holds none of the token any more.' });
    return;
  }
  const { data, tokenBalance } = transfer;
  const estimate = BigInt(
    (await chain.request('eth_estimateGas', [
      { from: forward.from_address, to: forward.smart_contract_address, data },
    ])) as string,
  );
  const gas = (estimate * 12n) / 10n;
  const need = gas * price;
  const have = await chain.nativeBalance(forward.from_address);
  const amount = formatUnits(tokenBalance, wallet.token_decimals);
  if (have >= need) {
    await signTransfer(
      deps,
      chain,
      forward,
      record,
      wallet.key_index,
      { to: forward.smart_contract_address, value: 0n, gas, price, data },
      amount,
    );
    return;
  }
  await fundGas(deps, chain, forward, record, {
    gasWalletId: wallet.gas_fee_funding_wallet_id,
    fund: need - have,
    price,
    gas,
    amount,
  });
}

/** Signs the gas funding transfer from the gas fee funding wallet, records it, then sends it. */
async function fundGas(
  deps: StepDeps,
  chain: ForwardingChain,
  forward: ForwardRow,
  record: RecordStep,
  plan: { gasWalletId: string | null; fund: bigint; price: bigint; gas: bigint; amount: string },
): Promise<void> {
  const gasWallet = plan.gasWalletId ? await gasWalletById(deps.db, plan.gasWalletId) : undefined;
  if (!gasWallet) {
    await record({ status: 'FAILED', error: 'The forwarding wallet has no gas fee funding wallet.' });
    return;
  }
  const cost = plan.fund + NATIVE_GAS * plan.price;
  const balance = await chain.nativeBalance(gasWallet.address);
  await setGasBalance(deps.db, gasWallet.id, formatUnits(balance, 18), balance >= cost);
  if (balance < cost) {
    await tellLowBalance(deps, gasWallet.id, forward.network, formatUnits(cost, 18));
    await record(
      {
        error: `The gas fee funding wallet holds ${formatUnits(balance, 18)}; the forward needs ${formatUnits(cost, 18)}.`,
      },
      WAIT.lowGas,
    );
    return;
  }
  const account = deps.keys.account(gasWallet.key_index);
  // The nonce is taken under the gas wallet's row lock and recorded with the signed transaction, so
  // forwards funded by one wallet never share a nonce, even when one of them was never sent.
  const signed = await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('gas_fee_funding_wallets')
      .select('next_nonce')
      .where('id', '=', gasWallet.id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const nonce = Math.max(row.next_nonce, await chain.pendingNonce(gasWallet.address));
    const raw = await account.signTransaction({
      type: 'legacy',
      chainId: chain.chainId,
      to: forward.from_address as `0x${string}`,
      value: plan.fund,
      gas: NATIVE_GAS,
      gasPrice: plan.price,
      nonce,
    });
    await trx
      .updateTable('gas_fee_funding_wallets')
      .set({ next_nonce: nonce + 1 })
      .where('id', '=', gasWallet.id)
      .execute();
    const recorded = await recordStep(trx, forward.id, deps.owner, {
      status: 'FUNDING_GAS',
      gas_raw_tx: raw,
      gas_tx_hash: keccak256(raw),
      gas_limit: plan.gas.toString(),
      gas_price: plan.price.toString(),
      amount: plan.amount,
      error: null,
    });
    if (!recorded) throw new LeaseLost();
    return raw;
  });
  Object.assign(forward, {
    status: 'FUNDING_GAS',
    gas_raw_tx: signed,
    gas_tx_hash: keccak256(signed),
    gas_limit: plan.gas.toString(),
    gas_price: plan.price.toString(),
    amount: plan.amount,
  });
  await broadcast(deps, chain, forward, signed);
  await record({}, WAIT.receipt);
}

/** Waits for the gas funding transfer to be mined, sending it again if the node lost it. */
async function awaitGas(
  deps: StepDeps,
  chain: ForwardingChain,
  forward: ForwardRow,
  record: RecordStep,
): Promise<void> {
  const receipt = (await chain.request('eth_getTransactionReceipt', [forward.gas_tx_hash])) as {
    status: string;
  } | null;
  if (!receipt) {
    await broadcast(deps, chain, forward, forward.gas_raw_tx ?? '');
    await record({}, WAIT.receipt);
    return;
  }
  if (receipt.status !== '0x1') {
    await record({ status: 'FAILED', error: 'The gas funding transfer failed on chain.' });
    return;
  }
  const wallet = await walletOf(deps.db, forward.wallet_id);
  const transfer = await tokenTransfer(chain, forward);
  if (!transfer) {
    await record({ status: 'FAILED', error: 'The wallet holds none of the token any more.' });
    return;
  }
  const { data, tokenBalance } = transfer;
  await signTransfer(
    deps,
    chain,
    forward,
    record,
    wallet.key_index,
    {
      to: forward.smart_contract_address ?? '',
      value: 0n,
      gas: BigInt(forward.gas_limit ?? '0'),
      price: BigInt(forward.gas_price ?? '0'),
      data,
    },
    formatUnits(tokenBalance, wallet.token_decimals),
  );
}

/** The ERC-20 transfer of the wallet's whole token balance to the destination; undefined when it holds none. */
async function tokenTransfer(chain: ForwardingChain, forward: ForwardRow) {
  const [tokenBalance] = await chain.balances([forward.from_address], forward.smart_contract_address);
  if (!tokenBalance) return undefined;
  const data = encodeFunctionData({
    abi: erc20Abi,
    functionName: 'transfer',
    args: [forward.to_address as `0x${string}`, tokenBalance],
  });
  return { tokenBalance, data };
}

/** Signs the forward itself, records it (SENDING), sends it, records that it was sent (CONFIRMING). */
async function signTransfer(
  deps: StepDeps,
  chain: ForwardingChain,
  forward: ForwardRow,
  record: RecordStep,
  keyIndex: number,
  tx: { to: string; value: bigint; gas: bigint; price: bigint; data?: `0x${string}` },
  amount: string,
): Promise<void> {
  const account = deps.keys.account(keyIndex);
  const raw = await account.signTransaction({
    type: 'legacy',
    chainId: chain.chainId,
    to: tx.to as `0x${string}`,
    value: tx.value,
    gas: tx.gas,
    gasPrice: tx.price,
    nonce: await chain.pendingNonce(forward.from_address),
    ...(tx.data ? { data: tx.data } : {}),
  });
  await record({
    status: 'SENDING',
    raw_tx: raw,
    tx_hash: keccak256(raw),
    amount,
    gas_limit: tx.gas.toString(),
    gas_price: tx.price.toString(),
    error: null,
  });
  await broadcast(deps, chain, forward, raw);
  await record({ status: 'CONFIRMING' }, WAIT.receipt);
}

/** Waits for the network's confirmations, then completes the forward with its receipt, fee and webhook. */
async function confirm(deps: StepDeps, chain: ForwardingChain, forward: ForwardRow, record: RecordStep): Promise<void> {
  const receipt = await chain.client
    .getTransactionReceipt({ hash: forward.tx_hash as `0x${string}` })
    .catch(() => null);
  if (!receipt) {
    await broadcast(deps, chain, forward, forward.raw_tx ?? '');
    await record({}, WAIT.receipt);
    return;
  }
  const head = await chain.client.getBlockNumber({ cacheTime: 0 });
  const confirmations = Number(head - receipt.blockNumber + 1n);
  if (confirmations < chain.confirmations) {
    await record({ confirmations }, WAIT.receipt);
    return;
  }
  const succeeded = receipt.status === 'success';
  const wallet = await walletOf(deps.db, forward.wallet_id);
  const webhookId = `msg_${forward.id.replace(/-/g, '')}`;
  const patch: ForwardPatch = {
    status: succeeded ? 'COMPLETED' : 'FAILED',
    confirmations,
    receipt: JSON.stringify(receiptJson(receipt)),
    error: succeeded ? null : 'The forward transfer failed on chain.',
  };
  const final = toTransaction({
    ...forward,
    ...patch,
    receipt: receiptJson(receipt),
    updated_at: new Date(),
  } as ForwardRow);
  if (wallet.webhook_url) {
    Object.assign(patch, {
      webhook_id: webhookId,
      webhook_status: 'PENDING',
      webhook_payload: webhookPayload(succeeded ? 'token_forwarding.completed' : 'token_forwarding.failed', {
        ...final,
        webhookStatus: 'PENDING',
        webhookId,
      }),
    } satisfies ForwardPatch);
  }
  // The fee, the completion and the webhook to deliver are one database transaction: all or none.
  await deps.db.transaction().execute(async (trx) => {
    if (!(await recordStep(trx, forward.id, deps.owner, patch))) throw new LeaseLost();
    if (succeeded && isNetwork(forward.network)) {
      await addUsage(trx, [
        {
          accountId: forward.account_id,
          apiKeyId: null,
          resource: forwardingResource(forward.network),
          date: utcDay(new Date()),
          usage: 1,
          computeUnits: null,
        },
      ]);
    }
  });
  Object.assign(forward, patch);
}

/** The receipt as JSON: numbers as decimal text, logs kept. */
function receiptJson(receipt: TransactionReceipt): Record<string, unknown> {
  return JSON.parse(JSON.stringify(receipt, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)));
}
