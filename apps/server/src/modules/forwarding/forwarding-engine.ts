import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { ForwardingChains } from './chain.ts';
import { advanceForward } from './forward-steps.ts';
import { type ScanResult, scanWallets } from './forwarding-scanner.ts';
import { leaseForwards, leaseHolders, releaseLeases, releaseLeasesOf } from './forwards.store.ts';
import { isGoneOwner, newLeaseOwner } from './lease-owner.ts';
import type { WalletKeys } from './wallet-keys.ts';

export interface EngineOptions {
  db: Db;
  chains: ForwardingChains;
  keys: WalletKeys;
  mailer: Mailer;
  log: FastifyBaseLogger;
  productName: string;
  /** How long a forward stays this engine's after it took it; another engine resumes it after that. */
  leaseSeconds?: number;
  /** Runs after each turn (the server delivers webhooks here). */
  afterTick?: () => Promise<unknown>;
  /** Tests only: called right after a transaction was sent, to play a crash there. */
  afterBroadcast?: (forwardId: string) => void;
}

export interface TickResult {
  scan: ScanResult;
  advanced: number;
}

/** Forwards worked on at once by one engine. */
const CONCURRENCY = 16;

/**
 * The forwarding engine (ARCHITECTURE §6): each turn scans the enabled wallets, opening forwards,
 * then moves every due forward on. Any number of engines (in server processes or on their own)
 * can share one database: a forward is opened once per deposit and worked on by one engine at a
 * time, and every step is recorded before the next, so a crash resumes instead of sending twice.
 */
export class ForwardingEngine {
  readonly owner = newLeaseOwner();
  private recovered = false;
  private timer: NodeJS.Timeout | undefined;
  private turn: Promise<unknown> | undefined;
  private stopped = false;

  constructor(private readonly options: EngineOptions) {}

  /** One turn: scan, then work until nothing is due. Never runs twice at once in one engine. */
  tick(): Promise<TickResult> {
    const running = (this.turn as Promise<TickResult> | undefined) ?? this.runTurn();
    this.turn = running.finally(() => {
      this.turn = undefined;
    });
    return running;
  }

  private async runTurn(): Promise<TickResult> {
    const { db, log } = this.options;
    if (!this.recovered) await this.recoverLeases();
    const scan = await scanWallets(db, this.options.chains);
    let advanced = 0;
    const steps = { ...this.options, owner: this.owner };
    for (let round = 0; round < 10 && !this.stopped; round++) {
      const leased = await leaseForwards(db, this.owner, this.options.leaseSeconds ?? 60, CONCURRENCY);
      if (leased.length === 0) break;
      await Promise.all(leased.map((forward) => advanceForward(steps, forward)));
      advanced += leased.length;
    }
    if (scan.opened || advanced) log.info({ ...scan, advanced }, 'token forwarding turn');
    await this.options.afterTick?.();
    return { scan, advanced };
  }

  /**
   * Once, at the first turn: a process of this host killed with forwards or webhooks leased (a
   * crash, an out-of-memory kill, a restarted container) gives them back now, rather than when
   * their leases run out (a minute for a forward, two for a webhook).
   */
  private async recoverLeases(): Promise<void> {
    const { db, log } = this.options;
    const gone = (await leaseHolders(db)).filter((owner) => isGoneOwner(owner, this.owner));
    await releaseLeasesOf(db, gone);
    this.recovered = true;
    if (gone.length) log.warn({ owners: gone }, 'took back the forwards and webhooks of stopped processes');
  }

  /** Runs a turn every `seconds`, each after the previous one ended. */
  start(seconds: number): void {
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      this.tick()
        .catch((error: unknown) => this.options.log.error({ err: error }, 'token forwarding turn failed'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, seconds * 1000).unref();
        });
    };
    this.timer = setTimeout(loop, seconds * 1000).unref();
  }

  /** Stops after the current turn and gives its forwards back, so another engine takes them at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.turn?.catch(() => undefined);
    await releaseLeases(this.options.db, this.owner).catch(() => undefined);
  }
}
