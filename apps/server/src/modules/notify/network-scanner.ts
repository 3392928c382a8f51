import type { NotifyActivity, NotifyPayload } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import { describeTransfer, type EventKind, payloadOf } from './activity-view.ts';
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
const CONFIRMATIONS_PER_TURN = 500;
const DEFAULT_LEASE_MS = 15_000;

/** The lease was taken over, or the cursor moved under this process: its transaction must not commit. */
class LeaseLost extends Error {}

const quantity = (hex: unknown) => Number.parseInt(String(hex), 16);

/** The confirmation or the removal of a live SEEN event: the same block and activity. */
function followUp(event: { account_id: string; payload: string }, kind: 'CONFIRMED' | 'REMOVED', network: string) {
  const seen = JSON.parse(event.payload) as NotifyPayload;
  return {
    accountId: event.account_id,
    kind,
    confirmAtBlock: null,
    payload: payloadOf({
      webhookId: seen.webhookId,
      network,
      block: seen.block,
      kind,
      replay: false,
      activity: seen.activity,
    }),
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
    // Nothing new: the newest block read may itself have been replaced.
    if (next > head && (await this.replaced(next - 1))) {
      next = cursor = await this.unwind(cursor, next, turn);
    }
    while (next <= head && turn.blocks < BLOCKS_PER_TURN) {
      const block = (await chain.request('eth_getBlockByNumber', [
        `0x${next.toString(16)}`,
        true,
      ])) as ChainBlock | null;
      if (!block) break;
      const parent = await keptBlock(db, network, next - 1);
      if (parent && parent.hash !== block.parentHash) {
        next = cursor = await this.unwind(cursor, next, turn);
        continue;
      }
      const logs = await this.logsOf(block.hash);
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
    turn.queued += await this.confirm(head);
    turn.queued += await this.replay(head);
    return turn;
  }

  /** Whether the chain's block at a number is no longer the one kept. */
  private async replaced(number: number): Promise<boolean> {
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
      const removals = taken.map((event) => followUp(event, 'REMOVED', network));
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

  private async logsOf(blockHash: string): Promise<ChainLog[]> {
    return (await this.deps.chain.request('eth_getLogs', [{ blockHash, topics: [TRANSFER_TOPICS] }])) as ChainLog[];
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
    const deliveries: NewDelivery[] = [];
    for (const { webhook, transfers } of matched) {
      const activity: NotifyActivity[] = transfers
        .filter((t) => !(t.category === 'NATIVE' && failed.has(t.txHash)))
        .map((t) => describeTransfer(t, this.deps.nativeToken, t.contract ? tokens.get(t.contract) : undefined));
      if (activity.length === 0) continue;
      const deep = webhook.confirmations > 0 && options.head >= number + webhook.confirmations;
      const kind: EventKind = options.replay && deep ? 'CONFIRMED' : 'SEEN';
      deliveries.push({
        accountId: webhook.accountId,
        kind,
        confirmAtBlock: !options.replay && webhook.confirmations > 0 ? number + webhook.confirmations : null,
        payload: payloadOf({
          webhookId: webhook.id,
          network: this.deps.network,
          block: { number, hash: block.hash, timestamp: quantity(block.timestamp) },
          kind,
          replay: options.replay,
          activity,
        }),
      });
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
    return new Set(hashes.filter((_, i) => (receipts[i] as { status?: string } | null)?.status === '0x0'));
  }

  /** Queues the confirmation of every event now deep enough. */
  private async confirm(head: number): Promise<number> {
    const { db, network, owner } = this.deps;
    const due = await dueConfirmations(db, network, head, CONFIRMATIONS_PER_TURN);
    if (due.length === 0) return 0;
    return db.transaction().execute(async (trx) => {
      if (!(await holdsScanner(trx, network, owner))) throw new LeaseLost();
      const confirmations = due.map((event) => followUp(event, 'CONFIRMED', network));
      const queued = await queueDeliveries(trx, confirmations);
      await markEvents(
        trx,
        due.map((event) => String(event.id)),
        'confirmed_at',
      );
      return queued;
    });
  }

  /** Moves each replay under way on by a few blocks, against its webhook's addresses watched now. */
  private async replay(head: number): Promise<number> {
    const { db, network, chain } = this.deps;
    let queued = 0;
    const replays = await runningReplays(db, network);
    if (replays.length === 0) return 0;
    const webhooks = await enabledWebhooksOn(db, network);
    for (const replay of replays) {
      const webhook = webhooks.get(replay.webhookId);
      if (!webhook) continue;
      let next = replay.nextBlock;
      const last = Math.min(replay.toBlock, head, next + REPLAY_BLOCKS_PER_TURN - 1);
      for (; next <= last; next++) {
        const block = (await chain.request('eth_getBlockByNumber', [
          `0x${next.toString(16)}`,
          true,
        ])) as ChainBlock | null;
        if (!block) break;
        const deliveries = await this.deliveriesOf(block, await this.logsOf(block.hash), {
          head,
          replay: true,
          webhook,
        });
        const from = next;
        const moved = await db.transaction().execute(async (trx) => {
          if (!(await advanceReplay(trx, replay.id, from, from + 1, from >= replay.toBlock))) return false;
          queued += await queueDeliveries(trx, deliveries);
          return true;
        });
        if (!moved) break;
      }
    }
    return queued;
  }
}
