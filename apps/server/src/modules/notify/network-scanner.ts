import type { NotifyActivity, NotifyPayload } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import {
  describeTransfer,
  type EventKind,
  eventIdOf,
  MAX_ACTIVITY_PER_MESSAGE,
  payloadOf,
  seenEventId,
} from './activity-view.ts';
import { type ChainBlock, type ChainLog, matchBlock, TRANSFER_TOPICS, type Transfer } from './block-activity.ts';
import { type NewDelivery, queueDeliveries } from './deliveries.store.ts';
import {
  advanceReplay,
  dueConfirmations,
  forgetBlocksAfter,
  holdsScanner,
  keepBlock,
  keptBlock,
  keptBlocksFrom,
  markEvents,
  moveCursor,
  runningReplays,
  seenAbove,
  takenBack,
  takeScanner,
} from './scanner.store.ts';
import { TokenInfos } from './token-info.ts';
import { WatchList } from './watch-list.ts';
import { enabledWebhooksOn, type WatchingWebhook } from './webhooks.store.ts';

/** What the scanner needs of a network's nodes (the forwarding chains' reads through the gateway's upstreams). */
export interface NotifyChain {
  request(method: string, params: unknown[]): Promise<unknown>;
  batch(calls: Array<{ method: string; params: unknown[] }>): Promise<unknown[]>;
}

export interface ScannerDeps {
  db: Db;
  chain: NotifyChain;
  network: string;
  nativeToken: string;
  owner: string;
  now?: () => Date;
  leaseMs?: number;
}

export interface ScanTurn {
  /** False while another process holds this network's lease. */
  held: boolean;
  head?: number;
  blocks: number;
  queued: number;
  reorgs: number;
}

/** Blocks read per turn: a scanner far behind catches up over several turns, still leasing between them. */
const BLOCKS_PER_TURN = 50;
const REPLAY_BLOCKS_PER_TURN = 25;
const CONFIRMATIONS_PER_TURN = 100;
const DEFAULT_LEASE_MS = 15_000;
/** How often an idle scanner checks that the newest block it read is still the chain's. */
const TIP_CHECK_MS = 2000;

/** The lease was taken over, or the cursor moved under this process: its transaction must not commit. */
class LeaseLost extends Error {}

const quantity = (hex: unknown) => Number.parseInt(String(hex), 16);

/** The confirmation or the removal of a live SEEN event: the same block, activity and part. */
function followUp(event: { account_id: string; payload: string }, kind: 'CONFIRMED' | 'REMOVED') {
  const seen = JSON.parse(event.payload) as NotifyPayload;
  return {
    accountId: event.account_id,
    kind,
    confirmAtBlock: null,
    payload: {
      ...seen,
      eventId: eventIdOf(seen.eventId, kind),
      confirmed: kind === 'CONFIRMED',
      removed: kind === 'REMOVED',
      replay: false,
    },
  };
}

/**
 * One network's scanner: reads each block once (the block with its transactions, and one
 * `eth_getLogs` by block hash for the three transfer events), matches it in one pass against the
 * watched addresses held in memory, and queues one delivery per webhook with activity. It keeps
 * the blocks it read, so a block whose parent is not the one it kept reveals a reorg: the blocks
 * above the fork have their events taken back (`removed: true`) and are read again. Only the
 * process holding the network's lease scans, and each block's deliveries commit with the cursor's
 * move from that block, so two processes never queue a block twice.
 */
export class NetworkScanner {
  private readonly watch: WatchList;
  private readonly tokens: TokenInfos;
  private tipCheckedAt = 0;

  constructor(private readonly deps: ScannerDeps) {
    this.watch = new WatchList(deps.db, deps.network);
    this.tokens = new TokenInfos((calls) => deps.chain.batch(calls));
  }

  private now = () => this.deps.now?.() ?? new Date();

  async turn(): Promise<ScanTurn> {
    const { db, network, owner, chain } = this.deps;
    const turn: ScanTurn = { held: false, blocks: 0, queued: 0, reorgs: 0 };
    const lease = await takeScanner(db, network, owner, this.now(), this.deps.leaseMs ?? DEFAULT_LEASE_MS);
    if (!lease) return turn;
    turn.held = true;
    const head = quantity(await chain.request('eth_blockNumber', []));
    turn.head = head;
    let cursor = lease.nextBlock;
    let next = cursor ?? head;
    // Nothing new: the newest block read may itself have been replaced (asked at most every few seconds).
    if (next > head && this.now().getTime() - this.tipCheckedAt >= TIP_CHECK_MS && (await this.replaced(next - 1))) {
      next = cursor = await this.unwind(cursor, next, turn);
    }
    // One reorg a turn: nodes that disagree at the tip do not keep a turn going round.
    while (next <= head && turn.blocks < BLOCKS_PER_TURN && turn.reorgs <= 1) {
      const block = (await chain.request('eth_getBlockByNumber', [
        `0x${next.toString(16)}`,
        true,
      ])) as ChainBlock | null;
      if (!block) break;
      const parent = await keptBlock(db, network, next - 1);
      if (parent && parent.hash !== block.parentHash) {
        if (turn.reorgs > 0) break;
        next = cursor = await this.unwind(cursor, next, turn);
        continue;
      }
      const logs = await this.logsOf(block);
      const deliveries = await this.deliveriesOf(block, logs, { head, replay: false });
      const from = cursor;
      await db.transaction().execute(async (trx) => {
        if (!(await moveCursor(trx, network, owner, from, next + 1))) throw new LeaseLost();
        await keepBlock(trx, network, { number: next, hash: block.hash, parentHash: block.parentHash });
        turn.queued += await queueDeliveries(trx, deliveries);
      });
      cursor = next + 1;
      next += 1;
      turn.blocks += 1;
    }
    // Only blocks read and kept are confirmed: never past what this turn has checked.
    if (cursor !== null) turn.queued += await this.confirm(Math.min(head, cursor - 1));
    return turn;
  }

  /** Whether the chain's block at a number is no longer the one kept. */
  private async replaced(number: number): Promise<boolean> {
    this.tipCheckedAt = this.now().getTime();
    const kept = await keptBlock(this.deps.db, this.deps.network, number);
    if (!kept) return false;
    const block = (await this.deps.chain.request('eth_getBlockByNumber', [`0x${number.toString(16)}`, false])) as {
      hash: string;
    } | null;
    return block !== null && block.hash !== kept.hash;
  }

  /**
   * A reorg below `next`: walks the kept blocks down to the newest one the chain still has, queues
   * a removal for every live event above it, and moves the cursor to the block after it.
   */
  private async unwind(cursor: number | null, next: number, turn: ScanTurn): Promise<number> {
    const { db, network, owner, chain } = this.deps;
    const kept = await keptBlocksFrom(db, network, next);
    let fork = (kept.at(-1)?.number ?? next) - 1;
    for (const block of kept) {
      const onChain = (await chain.request('eth_getBlockByNumber', [`0x${block.number.toString(16)}`, false])) as {
        hash: string;
      } | null;
      if (onChain?.hash === block.hash) {
        fork = block.number;
        break;
      }
    }
    await db.transaction().execute(async (trx) => {
      if (!(await moveCursor(trx, network, owner, cursor, fork + 1))) throw new LeaseLost();
      await forgetBlocksAfter(trx, network, fork);
      const taken = await seenAbove(trx, network, fork);
      const removals = taken.map((event) => followUp(event, 'REMOVED'));
      turn.queued += await queueDeliveries(trx, removals);
      await markEvents(
        trx,
        taken.map((event) => String(event.id)),
        'removed_at',
      );
    });
    turn.reorgs += 1;
    return fork + 1;
  }

  /**
   * The block's transfer logs: asked by block hash (EIP-234), which a reorg cannot mix up; a node
   * that does not take the hash is asked by number, and only the block's own logs are kept.
   */
  private async logsOf(block: ChainBlock): Promise<ChainLog[]> {
    const topics = [TRANSFER_TOPICS];
    try {
      return (await this.deps.chain.request('eth_getLogs', [{ blockHash: block.hash, topics }])) as ChainLog[];
    } catch (error) {
      const logs = (await this.deps.chain
        .request('eth_getLogs', [{ fromBlock: block.number, toBlock: block.number, topics }])
        .catch(() => Promise.reject(error))) as Array<ChainLog & { blockHash?: string }>;
      return logs.filter((log) => log.blockHash === block.hash);
    }
  }

  /**
   * The deliveries of one block: its transfers matched against the addresses watched now (of
   * one webhook for a replay), each webhook's categories kept, native transfers of reverted
   * transactions left out, token amounts described.
   */
  private async deliveriesOf(
    block: ChainBlock,
    logs: ChainLog[],
    options: { head: number; replay: false } | { head: number; replay: true; webhook: WatchingWebhook },
  ): Promise<NewDelivery[]> {
    await this.watch.refresh();
    const webhooks = options.replay
      ? new Map([[options.webhook.id, options.webhook]])
      : await enabledWebhooksOn(this.deps.db, this.deps.network);
    const watchers = (address: string) => {
      const ids = this.watch.watchers(address);
      return ids?.some((id) => webhooks.has(id)) ? ids.filter((id) => webhooks.has(id)) : undefined;
    };
    const matched = [...matchBlock(block, logs, watchers)].map(([id, transfers]) => {
      const webhook = webhooks.get(id) as WatchingWebhook;
      return { webhook, transfers: transfers.filter((t) => webhook.categories.has(t.category)) };
    });
    const all = matched.flatMap((m) => m.transfers);
    const failed = await this.revertedNative(all);
    const tokens = await this.tokens.of(
      all.filter((t) => t.category === 'ERC20' || t.category === 'ERC721').map((t) => t.contract ?? ''),
    );
    const number = quantity(block.number);
    const generations = matched.length
      ? await takenBack(this.deps.db, this.deps.network, number, block.hash)
      : new Map();
    const deliveries: NewDelivery[] = [];
    for (const { webhook, transfers } of matched) {
      const activity: NotifyActivity[] = transfers
        .filter((t) => !(t.category === 'NATIVE' && failed.has(t.txHash)))
        .map((t) => describeTransfer(t, this.deps.nativeToken, t.contract ? tokens.get(t.contract) : undefined));
      if (activity.length === 0) continue;
      const deep = webhook.confirmations > 0 && options.head >= number + webhook.confirmations;
      const kind: EventKind = options.replay && deep ? 'CONFIRMED' : 'SEEN';
      const count = Math.ceil(activity.length / MAX_ACTIVITY_PER_MESSAGE);
      for (let part = 0; part < count; part++) {
        deliveries.push({
          accountId: webhook.accountId,
          kind,
          confirmAtBlock: !options.replay && webhook.confirmations > 0 ? number + webhook.confirmations : null,
          payload: payloadOf({
            webhookId: webhook.id,
            network: this.deps.network,
            block: { number, hash: block.hash, timestamp: quantity(block.timestamp) },
            kind,
            seenId: seenEventId(webhook.id, block.hash, generations.get(webhook.id) ?? 0, part),
            replay: options.replay,
            activity: activity.slice(part * MAX_ACTIVITY_PER_MESSAGE, (part + 1) * MAX_ACTIVITY_PER_MESSAGE),
            ...(count > 1 ? { part: { index: part + 1, count } } : {}),
          }),
        });
      }
    }
    return deliveries;
  }

  /** The matched native transfers whose transaction reverted (their value never moved): receipts of those few only. */
  private async revertedNative(transfers: Transfer[]): Promise<Set<string>> {
    const hashes = [...new Set(transfers.filter((t) => t.category === 'NATIVE').map((t) => t.txHash))];
    if (hashes.length === 0) return new Set();
    const receipts = await this.deps.chain.batch(
      hashes.map((hash) => ({ method: 'eth_getTransactionReceipt', params: [hash] })),
    );
    const reverted = new Set<string>();
    for (const [i, hash] of hashes.entries()) {
      const receipt = receipts[i] as { status?: string } | null | Error | undefined;
      // Not there (a node behind, an error): the block is read again next turn rather than guessed.
      if (!receipt || receipt instanceof Error || !receipt.status) throw new Error(`no receipt for ${hash}`);
      if (receipt.status === '0x0') reverted.add(hash);
    }
    return reverted;
  }

  /** Queues the confirmation of every event now deep enough. */
  private async confirm(head: number): Promise<number> {
    const { db, network, owner } = this.deps;
    const due = await dueConfirmations(db, network, head, CONFIRMATIONS_PER_TURN);
    if (due.length === 0) return 0;
    return db.transaction().execute(async (trx) => {
      if (!(await holdsScanner(trx, network, owner))) throw new LeaseLost();
      const confirmations = due.map((event) => followUp(event, 'CONFIRMED'));
      const queued = await queueDeliveries(trx, confirmations);
      await markEvents(
        trx,
        due.map((event) => String(event.id)),
        'confirmed_at',
      );
      return queued;
    });
  }

  /**
   * Moves one replay on by a few blocks (the one least recently moved, so every account's get
   * their turn), against its webhook's addresses watched now. Run apart from the live scan, only by
   * the process holding the network's lease.
   */
  async replayTurn(): Promise<number> {
    const { db, network, owner, chain } = this.deps;
    const [replay] = await runningReplays(db, network, 1);
    if (!replay || !(await holdsScanner(db, network, owner))) return 0;
    const webhook = (await enabledWebhooksOn(db, network)).get(replay.webhookId);
    if (!webhook) return 0;
    const head = quantity(await chain.request('eth_blockNumber', []));
    let queued = 0;
    const last = Math.min(replay.toBlock, head, replay.nextBlock + REPLAY_BLOCKS_PER_TURN - 1);
    for (let next = replay.nextBlock; next <= last; next++) {
      const block = (await chain.request('eth_getBlockByNumber', [
        `0x${next.toString(16)}`,
        true,
      ])) as ChainBlock | null;
      if (!block) break;
      const deliveries = await this.deliveriesOf(block, await this.logsOf(block), { head, replay: true, webhook });
      const moved = await db.transaction().execute(async (trx) => {
        if (!(await advanceReplay(trx, replay.id, next, next + 1, next >= replay.toBlock))) return false;
        queued += await queueDeliveries(trx, deliveries);
        return true;
      });
      if (!moved) break;
    }
    return queued;
  }
}
