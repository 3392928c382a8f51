import type { Db } from '../../db/database.ts';
import { addressChangesSince, lastAddressChange, watchedPage } from './addresses.store.ts';

const PAGE = 10_000;
/** A copy older than this is read again whole (the log keeps a day; deleted webhooks' addresses go). */
const RELOAD_MS = 60 * 60_000;

/**
 * A network's watched addresses in memory: address → the webhooks watching it. Read whole once,
 * then kept current from the change log before each block, so a change committed before a block
 * is read applies to that block.
 */
export class WatchList {
  private byAddress = new Map<string, string[]>();
  private seq = '0';
  private loadedAt = 0;

  constructor(
    private readonly db: Db,
    readonly network: string,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.byAddress.size;
  }

  /** The webhooks watching an address (lower-case). */
  watchers = (address: string): readonly string[] | undefined => this.byAddress.get(address);

  async refresh(): Promise<void> {
    if (this.loadedAt === 0 || this.now() - this.loadedAt > RELOAD_MS) return this.load();
    for (;;) {
      const changes = await addressChangesSince(this.db, this.network, this.seq, PAGE);
      for (const change of changes) {
        if (change.added) this.add(change.webhook_id, change.address);
        else this.remove(change.webhook_id, change.address);
      }
      this.seq = changes.at(-1)?.seq ?? this.seq;
      if (changes.length < PAGE) return;
    }
  }

  private async load(): Promise<void> {
    // The log's position first: a change after it is applied again by the next refresh (adds and removes are idempotent).
    const seq = await lastAddressChange(this.db, this.network);
    const next = new Map<string, string[]>();
    let after: { webhookId: string; address: string } | null = null;
    for (;;) {
      const rows = await watchedPage(this.db, this.network, after, PAGE);
      for (const row of rows) {
        const list = next.get(row.address);
        if (list) list.push(row.webhook_id);
        else next.set(row.address, [row.webhook_id]);
      }
      const last = rows.at(-1);
      if (!last || rows.length < PAGE) break;
      after = { webhookId: last.webhook_id, address: last.address };
    }
    this.byAddress = next;
    this.seq = seq;
    this.loadedAt = this.now();
    await this.refresh();
  }

  private add(webhookId: string, address: string): void {
    const list = this.byAddress.get(address);
    if (!list) this.byAddress.set(address, [webhookId]);
    else if (!list.includes(webhookId)) list.push(webhookId);
  }

  private remove(webhookId: string, address: string): void {
    const list = this.byAddress.get(address)?.filter((id) => id !== webhookId);
    if (list?.length) this.byAddress.set(address, list);
    else this.byAddress.delete(address);
  }
}
