import {
  BILLABLE_RESOURCES,
  CACHED_PRICE_NAME,
  DEFAULT_CLASS_COMPUTE_UNITS,
  isForwardingResource,
  isNotifyResource,
  isPerEventResource,
  LOGS_BLOCKS_PER_UNIT,
  LOGS_MAX_UNITS,
  NOTIFICATION_BYTES_PER_UNIT,
  PRICE_CLASSES,
  type PriceClass,
} from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import {
  isComputeUnitCount,
  isComputeUnitPriceName,
  listComputeUnitPrices,
  MAX_COMPUTE_UNITS,
  setComputeUnits,
} from './compute-unit-prices.store.ts';
import { forwardingFee, isKnownResource, isPriceText, listPrices, networkPrices, setPrice } from './prices.store.ts';

/** The operator's price commands (`npm run admin -- price …`): what a person reads, and what a script reads. */
export interface PriceCommandResult {
  text: string;
  json: unknown;
}

/** Input a price command refuses: its message is the one line the operator reads. */
export class PriceCommandError extends Error {}

export const PRICE_VERBS = ['set', 'cu', 'list'] as const;
export type PriceVerb = (typeof PRICE_VERBS)[number];
export const isPriceVerb = (verb: string | undefined): verb is PriceVerb =>
  (PRICE_VERBS as readonly (string | undefined)[]).includes(verb);

const isPriceClass = (name: string): name is PriceClass => (PRICE_CLASSES as readonly string[]).includes(name);
const units = (n: number) => `${n} compute unit${n === 1 ? '' : 's'}`;

/** `price set RESOURCE PRICE`, `price cu NAME N|default`, `price list`. */
export function runPriceCommand(
  db: Db,
  verb: PriceVerb,
  name: string | undefined,
  value: string | undefined,
): Promise<PriceCommandResult> {
  if (verb === 'set') return setResourcePrice(db, name, value);
  if (verb === 'cu') return setNameUnits(db, name, value);
  return priceList(db);
}

async function setResourcePrice(db: Db, resource: string | undefined, price: string | undefined) {
  if (!resource || !isKnownResource(resource)) {
    throw new PriceCommandError(`Unknown resource "${resource ?? ''}". Known: ${BILLABLE_RESOURCES.join(', ')}`);
  }
  const forwarding = isForwardingResource(resource);
  const perEvent = isPerEventResource(resource);
  const event = forwarding ? 'forward' : 'delivery';
  if (!price || !isPriceText(resource, price)) {
    throw new PriceCommandError(
      perEvent
        ? `USD must be a fee per ${event} of at least 0 with at most 10 decimals, e.g. 0.05`
        : 'USD must be a price per million compute units of at least 0 with at most 6 digits and 4 decimals, e.g. 20 or 0.35',
    );
  }
  await setPrice(db, resource, price);
  const unitPrice = (await listPrices(db)).find((p) => p.resourceName === resource)?.unitPrice ?? '';
  if (perEvent) {
    return { text: `${resource} now costs ${unitPrice} USD per ${event}`, json: { resourceName: resource, unitPrice } };
  }
  const network = (await networkPrices(db)).find((n) => n.resourceName === resource);
  return {
    text: `${resource} now costs ${network?.usdPerMillionCu} USD per million compute units (${unitPrice} USD per unit)`,
    json: { ...network, unitPrice },
  };
}

async function setNameUnits(db: Db, name: string | undefined, value: string | undefined) {
  if (!name || !isComputeUnitPriceName(name)) {
    throw new PriceCommandError(
      `Unknown price class or method "${name ?? ''}": name a class (${PRICE_CLASSES.join(', ')}), ${CACHED_PRICE_NAME}, or a JSON-RPC method such as eth_call`,
    );
  }
  const count = value === 'default' ? null : /^\d{1,7}$/.test(value ?? '') ? Number(value) : Number.NaN;
  if (count !== null && !isComputeUnitCount(count)) {
    throw new PriceCommandError(
      `N must be a whole number of compute units from 0 to ${MAX_COMPUTE_UNITS}, or "default" to remove the override`,
    );
  }
  await setComputeUnits(db, name, count);
  return { text: unitsText(name, count), json: { name, computeUnits: count } };
}

function unitsText(name: string, count: number | null): string {
  if (isPriceClass(name)) {
    const fallback = DEFAULT_CLASS_COMPUTE_UNITS[name];
    return count === null
      ? `The ${name} class costs its default ${units(fallback)} again`
      : `The ${name} class now costs ${units(count)} (default ${fallback})`;
  }
  if (name === CACHED_PRICE_NAME) {
    return count === null
      ? "A call answered from the cache costs its class's units again"
      : `A call answered from the cache now costs ${units(count)}`;
  }
  return count === null ? `${name} costs its price class's units again` : `${name} now costs ${units(count)} a call`;
}

/** What each class's units are counted per, where it is not per call. */
const PER: Partial<Record<PriceClass, string>> = {
  logs: `per started ${LOGS_BLOCKS_PER_UNIT} blocks, at most ${LOGS_MAX_UNITS} times`,
  notification: `per started ${NOTIFICATION_BYTES_PER_UNIT} bytes`,
};

async function priceList(db: Db): Promise<PriceCommandResult> {
  const [networks, prices, overrides, fee] = await Promise.all([
    networkPrices(db),
    listPrices(db),
    listComputeUnitPrices(db),
    forwardingFee(db),
  ]);
  const unitPrices = new Map(prices.map((p) => [p.resourceName, p.unitPrice]));
  const own = new Map(overrides.map((o) => [o.name, o.computeUnits]));
  const json = {
    networks: networks.map((n) => ({ ...n, unitPrice: unitPrices.get(n.resourceName) ?? '' })),
    forwardingFeeUsd: fee,
    forwarding: prices
      .filter((p) => isForwardingResource(p.resourceName))
      .map((p) => ({ resourceName: p.resourceName, usdPerForward: p.unitPrice })),
    notify: prices
      .filter((p) => isNotifyResource(p.resourceName))
      .map((p) => ({ resourceName: p.resourceName, usdPerDelivery: p.unitPrice })),
    classes: PRICE_CLASSES.map((name) => ({
      name,
      computeUnits: own.get(name) ?? DEFAULT_CLASS_COMPUTE_UNITS[name],
      defaultComputeUnits: DEFAULT_CLASS_COMPUTE_UNITS[name],
    })),
    cachedComputeUnits: own.get(CACHED_PRICE_NAME) ?? null,
    methods: overrides.filter((o) => !isPriceClass(o.name) && o.name !== CACHED_PRICE_NAME),
  };
  const pad = (text: string, width: number) => text.padEnd(width);
  const feesDiffer = json.forwarding.some((f) => f.usdPerForward !== fee);
  const lines = [
    'RPC calls, USD per million compute units:',
    ...json.networks.map(
      (n) => `  ${pad(n.network, 17)} ${pad(n.resourceName, 26)} ${n.usdPerMillionCu} (${n.unitPrice} per unit)`,
    ),
    feesDiffer ? 'Token forwards, USD per forward:' : `Token forwards, USD per forward: ${fee}`,
    ...(feesDiffer ? json.forwarding.map((f) => `  ${pad(f.resourceName, 34)} ${f.usdPerForward}`) : []),
    'Address-activity webhook deliveries, USD per delivery:',
    ...json.notify.map((f) => `  ${pad(f.resourceName, 34)} ${f.usdPerDelivery}`),
    'Compute units per call, by price class:',
    ...json.classes.map((c) => {
      const notes = [PER[c.name], c.computeUnits === c.defaultComputeUnits ? '' : `default ${c.defaultComputeUnits}`];
      return `  ${pad(c.name, 13)} ${[c.computeUnits, ...notes.filter(Boolean)].join('  ')}`.trimEnd();
    }),
    `  ${pad(CACHED_PRICE_NAME, 13)} ${json.cachedComputeUnits ?? "its class's units"}`,
    json.methods.length ? "Methods' own compute units:" : "Methods' own compute units: none",
    ...json.methods.map((m) => `  ${pad(m.name, 40)} ${m.computeUnits}`),
  ];
  return { text: lines.join('\n'), json };
}
