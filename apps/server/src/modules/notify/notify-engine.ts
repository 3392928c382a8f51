import { isNetwork, type Network } from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { type ForwardingChains, newLeaseOwner } from '../forwarding/index.ts';
import { pruneAddressLog } from './addresses.store.ts';
import { pruneDeliveries } from './deliveries.store.ts';
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
/** The deliveries log keeps a month. */
const DELIVERIES_KEPT_DAYS = 30;

/**
 * Address-activity webhooks' engine: every network with an enabled webhook is scanned by the
 * process holding its lease (one scanner per network serves every webhook of every account), and
 * due deliveries are sent. Each network's scan and the sending run apart, so a slow node or a slow
 * receiver holds up only itself. Any number of processes may run one.
 */
export class NotifyEngine {
  readonly owner = newLeaseOwner();
  private readonly scanners = new Map<string, NetworkScanner>();
  private readonly scanning = new Map<string, Promise<ScanTurn | undefined>>();
  private readonly replaying = new Map<string, Promise<number>>();
  private sending: Promise<SendRun> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private prunedAt = 0;

  constructor(private readonly options: NotifyEngineOptions) {}

  /** One turn, waited for: every watched network scanned, then what is due sent (jobs and tests). */
  async tick(): Promise<NotifyTick> {
    const networks = await this.networks();
    const turns = await Promise.all(networks.map((network) => this.scan(network)));
    await Promise.all(networks.map((network, i) => (turns[i]?.held ? this.replay(network) : 0)));
    const scans: Record<string, ScanTurn> = {};
    for (const [i, network] of networks.entries()) {
      const turn = turns[i];
      if (turn) scans[network] = turn;
    }
    return { scans, sent: await this.send() };
  }

  private async networks(): Promise<Network[]> {
    const { db, chains } = this.options;
    if (Date.now() - this.prunedAt > 3600_000) {
      this.prunedAt = Date.now();
      await pruneAddressLog(db, new Date(Date.now() - DAY_MS));
      await pruneDeliveries(db, new Date(Date.now() - DELIVERIES_KEPT_DAYS * DAY_MS));
    }
    return (await watchedNetworks(db)).filter((n): n is Network => isNetwork(n) && chains.available(n));
  }

  /** A turn of one network's scanner; the one under way if there is one. */
  private scan(network: Network): Promise<ScanTurn | undefined> {
    const running = this.scanning.get(network);
    if (running) return running;
    const turn = this.scannerOf(network)
      .turn()
      .catch((error: unknown) => {
        this.options.log.warn(
          { err: error, network },
          'address activity scan failed; the block is read again next turn',
        );
        return undefined;
      })
      .finally(() => this.scanning.delete(network));
    this.scanning.set(network, turn);
    return turn;
  }

  /** A turn of the network's replays, apart from its live scan so a long replay never delays new blocks. */
  private replay(network: Network): Promise<number> {
    const running = this.replaying.get(network);
    if (running) return running;
    const turn = this.scannerOf(network)
      .replayTurn()
      .catch((error: unknown) => {
        this.options.log.warn({ err: error, network }, 'address activity replay failed; it goes on next turn');
        return 0;
      })
      .finally(() => this.replaying.delete(network));
    this.replaying.set(network, turn);
    return turn;
  }

  private scannerOf(network: Network): NetworkScanner {
    let scanner = this.scanners.get(network);
    if (!scanner) {
      const chain = this.options.chains.get(network);
      scanner = new NetworkScanner({
        db: this.options.db,
        network,
        nativeToken: nativeTokenOf(network),
        owner: this.owner,
        chain: { request: (method, params) => chain.request(method, params), batch: (calls) => chain.batch(calls) },
      });
      this.scanners.set(network, scanner);
    }
    return scanner;
  }

  /** A delivery run; the one under way if there is one. */
  private send(): Promise<SendRun> {
    this.sending ??= sendDue({ ...this.options.sender, owner: this.owner }).finally(() => {
      this.sending = undefined;
    });
    return this.sending;
  }

  /**
   * Every `ms`: starts a scan of each watched network not already scanning and a delivery run if
   * none is under way, without waiting for them; a scan that queued deliveries starts a run at once.
   */
  start(ms: number): void {
    this.stopped = false;
    const loop = async () => {
      if (this.stopped) return;
      try {
        for (const network of await this.networks()) {
          if (this.scanning.has(network)) continue;
          void this.scan(network).then((turn) => {
            if (turn?.queued && !this.stopped) void this.send().catch(() => undefined);
            if (turn?.held && !this.stopped && !this.replaying.has(network)) void this.replay(network);
          });
        }
        void this.send().catch((error: unknown) =>
          this.options.log.error({ err: error }, 'address activity deliveries failed'),
        );
      } catch (error) {
        this.options.log.error({ err: error }, 'address activity turn failed');
      }
      if (!this.stopped) this.timer = setTimeout(() => void loop(), ms).unref();
    };
    this.timer = setTimeout(() => void loop(), ms).unref();
  }

  /** Stops after the scans and sends under way and gives back its networks, so another process scans them at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.all(
      [...this.scanning.values(), ...this.replaying.values(), this.sending].map((p) => p?.catch(() => undefined)),
    );
    await releaseScanners(this.options.db, this.owner).catch(() => undefined);
  }
}
