import {
  CACHED_PRICE_NAME,
  DEFAULT_CLASS_COMPUTE_UNITS,
  DEFAULT_FORWARDING_FEE_USD,
  DEFAULT_REQUEST_PRICE_USD,
  DEFAULT_USD_PER_MILLION_CU,
  logsComputeUnits,
  notificationComputeUnits,
  PRICE_CLASSES,
  type PriceClass,
  priceClassOf,
  RPC_METHOD_TABLE,
  RPC_NETWORKS,
  type RpcPricing,
  rpcMethodRule,
} from '@ebs/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { OneAtATime } from '../../jobs/one-at-a-time.ts';
import { forwardingFee, listComputeUnitPrices, listPrices, networkPrices } from '../usage/index.ts';
import type { PlannedCall, RequestPlan } from './request-plan.ts';

/** A price in units of 10⁻¹⁰ USD (numeric(20,10)'s scale): exact integers for the spend counter. */
export type PriceUnits = number;

/** Decimal text with at most 10 decimals, as 10⁻¹⁰ USD. */
export function priceUnitsOf(decimal: string): PriceUnits {
  const [whole = '0', fraction = ''] = decimal.split('.');
  return Number(whole) * 1e10 + Number(fraction.padEnd(10, '0').slice(0, 10));
}

/**
 * What calls cost, in memory (docs/api.md "Pricing"): each price class's compute units and the
 * operator's overrides of a class or a method (`price cu`), and each network's price of one unit.
 * Read from the database every few seconds, so that a change reaches every process without a read
 * per request. A call's units are worked out from its row of the table of methods at the screen;
 * its cost at the meter, once the gateway knows whether it answered it itself.
 */
export class PriceBook {
  private classes: Record<PriceClass, number> = { ...DEFAULT_CLASS_COMPUTE_UNITS };
  /** A method's own units, when the operator set them (empty nearly always: no lookup then). */
  private methods = new Map<string, number>();
  /** A cache hit's units; null: its class's. */
  private cached: number | null = null;
  /** Each RPC resource's price of one compute unit. */
  private unitPrices = new Map<string, PriceUnits>();
  private pricing: RpcPricing = pricingOf(this.classes, this.methods, this.cached, [], DEFAULT_FORWARDING_FEE_USD);
  private timer: NodeJS.Timeout | undefined;
  private readonly reads = new OneAtATime(() => this.read());

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {
    const unit = priceUnitsOf(DEFAULT_REQUEST_PRICE_USD);
    for (const network of RPC_NETWORKS) this.unitPrices.set(network.resource, unit);
  }

  /** A call's compute units by its class (or its method's own), before the gateway answers it. */
  unitsOf(item: PlannedCall): number {
    const { rule, call } = item;
    const priced = priceClassOf(rule, call.params);
    // A method's own units, unless the call has overrides (their class whatever the method).
    if (this.methods.size > 0 && priced !== 'override') {
      const own = this.methods.get(call.method);
      if (own !== undefined) return own;
    }
    return this.classes[priced];
  }

  /**
   * What a request's calls cost once answered: nothing for those the gateway refused or failed
   * (refuseCall zeroes them), a cache hit's units when the operator set them, eth_getLogs by the
   * range its guard read. Each call's `units` become what it costs.
   */
  costOf(plan: RequestPlan): number {
    let total = 0;
    for (const item of plan.calls) {
      if (item.units === 0) continue;
      const { price } = item.rule;
      if (item.cached && this.cached !== null) item.units = this.cached;
      else if (price === 'logs') item.units = logsComputeUnits(item.units, item.blocks ?? null);
      else if (price === 'notification') item.units = notificationComputeUnits(item.units, item.bytes ?? 0);
      total += item.units;
    }
    return total;
  }

  /** A subscription notification of `bytes` bytes. */
  notificationUnits(bytes: number): number {
    return notificationComputeUnits(this.classes.notification, bytes);
  }

  /** A resource's price of one compute unit. */
  unitPrice(resource: string): PriceUnits {
    return this.unitPrices.get(resource) ?? 0;
  }

  /** GET /api/v1.0/rpc/pricing. */
  published(): RpcPricing {
    return this.pricing;
  }

  /** Reads the prices, after any read under way (one at a time): what was written before the call is in force after it. */
  refresh(): Promise<void> {
    return this.reads.run();
  }

  start(intervalMs: number): void {
    const refresh = () => {
      // A slow database: no reads pile up.
      if (this.reads.busy) return;
      this.refresh().catch(() => {
        // logged by read(); the last prices are kept and read again next interval
      });
    };
    refresh();
    this.timer = setInterval(refresh, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async read(): Promise<void> {
    try {
      const [overrides, networks, prices, fee] = await Promise.all([
        listComputeUnitPrices(this.db),
        networkPrices(this.db),
        listPrices(this.db),
        forwardingFee(this.db),
      ]);
      const classes = { ...DEFAULT_CLASS_COMPUTE_UNITS };
      const methods = new Map<string, number>();
      let cached: number | null = null;
      for (const { name, computeUnits } of overrides) {
        if (name === CACHED_PRICE_NAME) cached = computeUnits;
        else if ((PRICE_CLASSES as readonly string[]).includes(name)) classes[name as PriceClass] = computeUnits;
        else methods.set(name, computeUnits);
      }
      this.classes = classes;
      this.methods = methods;
      this.cached = cached;
      this.unitPrices = new Map(prices.map((p) => [p.resourceName, priceUnitsOf(p.unitPrice)]));
      this.pricing = pricingOf(classes, methods, cached, networks, fee);
    } catch (error) {
      this.log.error({ err: error }, 'prices could not be read; the last ones are kept');
      throw error;
    }
  }
}

/** The published prices: every method the gateway serves, or a namespace of them, and the operator's own. */
function pricingOf(
  classes: Record<PriceClass, number>,
  methods: ReadonlyMap<string, number>,
  cached: number | null,
  networks: RpcPricing['networks'],
  forwardingFeeUsd: string,
): RpcPricing {
  const rows = new Map<string, RpcPricing['methods'][number]>();
  for (const [method, rule] of Object.entries(RPC_METHOD_TABLE)) {
    if (rule.refused !== false) continue;
    rows.set(method, { method, computeUnits: methods.get(method) ?? classes[rule.price], priceClass: rule.price });
  }
  for (const [method, computeUnits] of methods) {
    if (!rows.has(method)) rows.set(method, { method, computeUnits, priceClass: rpcMethodRule(method).price });
  }
  return {
    networks: networks.length
      ? networks
      : RPC_NETWORKS.map((n) => ({
          network: n.path,
          resourceName: n.resource,
          usdPerMillionCu: DEFAULT_USD_PER_MILLION_CU,
        })),
    methods: [...rows.values()].sort((a, b) => a.method.localeCompare(b.method)),
    classes: PRICE_CLASSES.map((name) => ({ name, computeUnits: classes[name] })),
    cachedComputeUnits: cached,
    forwardingFeeUsd,
  };
}
