import type { Db } from '../../db/database.ts';

/** What the gateway needs to know of a key, as the database says it now. */
export interface KeyState {
  accountId: string;
  /** SHA-256 of the key, decoded from its stored hex once per read rather than once per request. */
  keyHash: Buffer;
  active: boolean;
  deleted: boolean;
  accountEnabled: boolean;
}

interface Entry {
  state: KeyState | null;
  usedAt: number;
}

const CHUNK = 500;
/** Keys not used for this long leave the cache. */
const IDLE_MS = 10 * 60_000;
const MAX_ENTRIES = 100_000;

async function loadKeys(db: Db, ids: string[]): Promise<Map<string, KeyState>> {
  const found = new Map<string, KeyState>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db
      .selectFrom('api_keys as k')
      .innerJoin('accounts as a', 'a.id', 'k.account_id')
      .select(['k.id', 'k.account_id', 'k.key_hash', 'k.status', 'k.deleted_at', 'a.is_billing_api_enabled'])
      .where('k.id', 'in', ids.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) {
      found.set(r.id, {
        accountId: r.account_id,
        keyHash: Buffer.from(r.key_hash, 'hex'),
        active: r.status === 'ACTIVE',
        deleted: r.deleted_at !== null,
        accountEnabled: r.is_billing_api_enabled,
      });
    }
  }
  return found;
}

/**
 * The gateway's view of API keys, so that a request costs no database read. Every cached key
 * (and every unknown id asked for) is re-read in one query per interval, so a key's deactivation
 * or deletion, or its account's suspension, takes effect within the interval in every server
 * process that shares the database, whichever process made the change.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<KeyState | null>>();
  private timer: NodeJS.Timeout | undefined;
  private refreshing = false;

  constructor(
    private readonly db: Db,
    private readonly refreshMs = 250,
  ) {}

  async get(keyId: string): Promise<KeyState | null> {
    const entry = this.entries.get(keyId);
    if (entry) {
      entry.usedAt = Date.now();
      return entry.state;
    }
    let load = this.loading.get(keyId);
    if (!load) {
      load = loadKeys(this.db, [keyId])
        .then((found) => {
          const state = found.get(keyId) ?? null;
          this.remember(keyId, state);
          return state;
        })
        .finally(() => this.loading.delete(keyId));
      this.loading.set(keyId, load);
    }
    return load;
  }

  private remember(keyId: string, state: KeyState | null): void {
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = [...this.entries].sort((a, b) => a[1].usedAt - b[1].usedAt).slice(0, MAX_ENTRIES / 10);
      for (const [id] of oldest) this.entries.delete(id);
    }
    this.entries.set(keyId, { state, usedAt: Date.now() });
    this.start();
  }

  /** Re-reads every cached key; drops keys idle for a while. */
  async refresh(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      const now = Date.now();
      for (const [id, entry] of this.entries) if (now - entry.usedAt > IDLE_MS) this.entries.delete(id);
      const ids = [...this.entries.keys()];
      if (ids.length === 0) return;
      const found = await loadKeys(this.db, ids);
      for (const id of ids) {
        const entry = this.entries.get(id);
        if (entry) entry.state = found.get(id) ?? null;
      }
    } finally {
      this.refreshing = false;
    }
  }

  private start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.refresh().catch(() => {
        // The database is away; the cache keeps its last view and tries again next interval.
      });
    }, this.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
