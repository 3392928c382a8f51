import { isNetwork } from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { type ForwardingChains, newLeaseOwner } from '../forwarding/index.ts';
import { pruneAddressLog } from './addresses.store.ts';
import { NetworkScanner, type ScanTurn } from './network-scanner.ts';
import { nativeTokenOf } from './notify.service.ts';
import { type SenderDeps, type SendRun, sendDue } from './notify-sender.ts';
import { releaseScanners } from './scanner.store.ts';
import { watchedNetworks } from './webhooks.store.ts';

export interface NotifyEngineOptions {
  db: Db;
  chains: ForwardingChains;
  log: FastifyBaseLogger;
  sender: Omit<SenderDeps, 'owner'>;
}

export interface NotifyTick {
  scans: Record<string, ScanTurn>;
  sent: SendRun;
}

const DAY_MS = 24 * 3600_000;

/**
 * Address-activity webhooks' engine: each turn, every network with an enabled webhook is scanned
 * by the process holding its lease (one scanner per network serves every webhook of every
 * account), then the due deliveries are sent. Any number of processes may run one.
 */
export class NotifyEngine {
  readonly owner = newLeaseOwner();
  private readonly scanners = new Map<string, NetworkScanner>();
  private turn: Promise<NotifyTick> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private prunedAt = 0;

  constructor(private readonly options: NotifyEngineOptions) {}

  /** One turn; never two at once in one engine. */
  tick(): Promise<NotifyTick> {
    if (this.turn) return this.turn;
    const running = this.runTurn();
    this.turn = running.finally(() => {
      this.turn = undefined;
    });
    return this.turn;
  }

  private async runTurn(): Promise<NotifyTick> {
    const { db, chains, log } = this.options;
    const scans: Record<string, ScanTurn> = {};
    for (const network of await watchedNetworks(db)) {
      if (!isNetwork(network) || !chains.available(network)) continue;
      let scanner = this.scanners.get(network);
      if (!scanner) {
        const chain = chains.get(network);
        scanner = new NetworkScanner({
          db,
          network,
          nativeToken: nativeTokenOf(network),
          owner: this.owner,
          chain: { request: (method, params) => chain.request(method, params), batch: (calls) => chain.batch(calls) },
        });
        this.scanners.set(network, scanner);
      }
      try {
        scans[network] = await scanner.turn();
      } catch (error) {
        log.warn({ err: error, network }, 'address activity scan failed; the block is read again next turn');
      }
    }
    const sent = await sendDue({ ...this.options.sender, owner: this.owner });
    if (Date.now() - this.prunedAt > 3600_000) {
      this.prunedAt = Date.now();
      await pruneAddressLog(db, new Date(Date.now() - DAY_MS));
    }
    return { scans, sent };
  }

  /** A turn every `ms`, each after the previous one ended. */
  start(ms: number): void {
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      this.tick()
        .catch((error: unknown) => this.options.log.error({ err: error }, 'address activity turn failed'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, ms).unref();
        });
    };
    this.timer = setTimeout(loop, ms).unref();
  }

  /** Stops after the current turn and gives back its networks, so another process scans them at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.turn?.catch(() => undefined);
    await releaseScanners(this.options.db, this.owner).catch(() => undefined);
  }
}
