import type { Db } from '../../db/database.ts';
import { JwtVerifier } from './key-jwt.ts';
import type { OwnLimits } from './key-limits.ts';
import { KeyPolicy } from './key-policy.ts';
import { findGatewayKeys, findGatewayKeyVersions, type GatewayKeyRow } from './keys.store.ts';

/** What the gateway needs to know of a key, as the database says it now. */
export interface KeyState {
  accountId: string;
  /** The key row's updated_at as text: a change to the key moves it. */
  version: string;
  /** SHA-256 of the key, decoded from its stored hex once per read rather than once per request. */
  keyHash: Buffer;
  /** The secret a roll replaced, valid until previousUntil (ms); null when there is none. */
  previousKeyHash: Buffer | null;
  /** The current secret once a request has shown it matching keyHash (the state is replaced when the key changes). */
  verified?: string;
  previousUntil: number;
  active: boolean;
  deleted: boolean;
  accountEnabled: boolean;
  /** When the key stops being valid (ms); null: never. */
  expiresAt: number | null;
  /** The JWT check when the key requires JWT-signed requests, else null. */
  jwt: JwtVerifier | null;
  /** The key's allowed origins, addresses, methods and contracts; null when it has none. */
  policy: KeyPolicy | null;
  /** The key's own limits in calls and in compute units. */
  limits: OwnLimits;
}

interface Entry {
  state: KeyState | null;
  usedAt: number;
}

const CHUNK = 500;
/** Keys not used for this long leave the cache. */
const IDLE_MS = 10 * 60_000;
const MAX_ENTRIES = 100_000;
/**
 * An id that names no key is remembered as such for this long and not re-read meanwhile: one read
 * per unknown id per window, however often it is sent, and none in the periodic re-read. A key is
 * made before anyone can know its id, so no new key is refused for it.
 */
const MISS_MS = 5_000;
const MAX_MISSES = 20_000;

function toState(row: GatewayKeyRow, accountEnabled: boolean): KeyState {
  return {
    accountId: row.accountId,
    version: row.version,
    keyHash: row.keyHash,
    previousKeyHash: row.previousKeyHash,
    previousUntil: row.previousKeyExpiresAt?.getTime() ?? 0,
    active: row.active,
    deleted: row.deleted,
    accountEnabled,
    expiresAt: row.expiresAt?.getTime() ?? null,
    jwt: row.jwtRequired ? new JwtVerifier(row.jwtKeys) : null,
    policy: KeyPolicy.of(row),
    limits: {
      requestsPerSecond: row.requestsPerSecond,
      requestsPerDay: row.requestsPerDay,
      computeUnitsPerSecond: row.computeUnitsPerSecond,
      computeUnitsPerDay: row.computeUnitsPerDay,
    },
  };
}

/**
 * Of these accounts, the ones whose billing API is enabled (not suspended): the accounts module's
 * answer, handed in by the composition root.
 */
export type EnabledAccounts = (db: Db, accountIds: string[]) => Promise<Set<string>>;

async function loadKeys(db: Db, enabledAccounts: EnabledAccounts, ids: string[]): Promise<Map<string, KeyState>> {
  const found = new Map<string, KeyState>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const keys = await findGatewayKeys(db, ids.slice(i, i + CHUNK));
    if (keys.length === 0) continue;
    const enabled = await enabledAccounts(db, [...new Set(keys.map((k) => k.accountId))]);
    for (const key of keys) found.set(key.id, toState(key, enabled.has(key.accountId)));
  }
  return found;
}

/**
 * The gateway's view of API keys, so that a request costs no database read. Every cached key is
 * re-read in one query per interval, so a key's deactivation or deletion, or its account's
 * suspension, takes effect within the interval in every server process that shares the database,
 * whichever process made the change. Ids that name no key are kept apart, briefly and within a
 * bound, so that a stream of made-up ids neither grows the cache nor the periodic re-read.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  /** Unknown ids and when they were read, oldest first (Map keeps insertion order). */
  private readonly misses = new Map<string, number>();
  private readonly loading = new Map<string, Promise<KeyState | null>>();
  private timer: NodeJS.Timeout | undefined;
  private refreshing = false;

  private readonly refreshMs: number;
  private readonly missMs: number;
  private readonly maxMisses: number;

  constructor(
    private readonly db: Db,
    private readonly enabledAccounts: EnabledAccounts,
    options: { refreshMs?: number; missMs?: number; maxMisses?: number } = {},
  ) {
    this.refreshMs = options.refreshMs ?? 250;
    this.missMs = options.missMs ?? MISS_MS;
    this.maxMisses = options.maxMisses ?? MAX_MISSES;
  }

  /** How many keys and unknown ids are held now. */
  get size(): { keys: number; misses: number } {
    return { keys: this.entries.size, misses: this.misses.size };
  }

  /**
   * What is known of an id without a database read: its key, null for an id known to name none,
   * undefined when only a read can tell.
   */
  cached(keyId: string): KeyState | null | undefined {
    const entry = this.entries.get(keyId);
    if (entry) {
      entry.usedAt = Date.now();
      return entry.state;
    }
    const missedAt = this.misses.get(keyId);
    return missedAt !== undefined && Date.now() - missedAt < this.missMs ? null : undefined;
  }

  async get(keyId: string): Promise<KeyState | null> {
    const entry = this.entries.get(keyId);
    if (entry) {
      entry.usedAt = Date.now();
      return entry.state;
    }
    const missedAt = this.misses.get(keyId);
    if (missedAt !== undefined) {
      if (Date.now() - missedAt < this.missMs) return null;
      this.misses.delete(keyId);
    }
    let load = this.loading.get(keyId);
    if (!load) {
      load = loadKeys(this.db, this.enabledAccounts, [keyId])
        .then((found) => {
          const state = found.get(keyId) ?? null;
          if (state) this.remember(keyId, state);
          else this.rememberMiss(keyId);
          return state;
        })
        .finally(() => this.loading.delete(keyId));
      this.loading.set(keyId, load);
    }
    return load;
  }

  private remember(keyId: string, state: KeyState): void {
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = [...this.entries].sort((a, b) => a[1].usedAt - b[1].usedAt).slice(0, MAX_ENTRIES / 10);
      for (const [id] of oldest) this.entries.delete(id);
    }
    this.entries.set(keyId, { state, usedAt: Date.now() });
    this.start();
  }

  private rememberMiss(keyId: string): void {
    const now = Date.now();
    for (const [id, at] of this.misses) {
      if (this.misses.size < this.maxMisses && now - at < this.missMs) break;
      this.misses.delete(id);
    }
    this.misses.set(keyId, now);
  }

  /**
   * Re-reads every cached key's version and account state; drops keys idle for a while. A key
   * whose version moved (any change: status, rules, limits, secret) is read again whole; the others
   * keep their compiled rules and JWT check.
   */
  async refresh(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      const now = Date.now();
      for (const [id, entry] of this.entries) if (now - entry.usedAt > IDLE_MS) this.entries.delete(id);
      const ids = [...this.entries.keys()];
      for (let i = 0; i < ids.length; i += CHUNK) await this.refreshChunk(ids.slice(i, i + CHUNK));
    } finally {
      this.refreshing = false;
    }
  }

  private async refreshChunk(ids: string[]): Promise<void> {
    const versions = await findGatewayKeyVersions(this.db, ids);
    const changed = versions.filter((v) => this.entries.get(v.id)?.state?.version !== v.version).map((v) => v.id);
    const reloaded =
      changed.length > 0 ? await loadKeys(this.db, this.enabledAccounts, changed) : new Map<string, KeyState>();
    const enabled = await this.enabledAccounts(this.db, [...new Set(versions.map((v) => v.accountId))]);
    const present = new Set(versions.map((v) => v.id));
    for (const id of ids) {
      const entry = this.entries.get(id);
      if (!entry) continue;
      if (!present.has(id)) entry.state = null;
      else if (reloaded.has(id)) entry.state = reloaded.get(id) ?? null;
      if (entry.state) entry.state.accountEnabled = enabled.has(entry.state.accountId);
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
