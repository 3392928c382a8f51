/** The Pricing page's words (ours: the spec has no pricing page). */
export const PricingTexts = {
  intro:
    'Every call to the RPC endpoints costs compute units (CU), by its method; each network has its price per million CU. Token forwards cost a fee each.',
  networks: 'Networks',
  network: 'Network',
  resource: 'Resource',
  usdPerMillionCu: 'USD per million CU',
  forwardingFee: (fee: string) => `Token forwarding: ${fee} USD per forward.`,
  // the rules
  rules: 'How calls are counted',
  costRule: "A call costs its compute units × its network's USD per million CU ÷ 1,000,000.",
  batchRule: 'A batch costs the sum of its calls.',
  logsRule: (units: number, blocks: string, times: number) =>
    `eth_getLogs and eth_getFilterLogs cost ${units} CU per started ${blocks} blocks of their range, at most ${times}× (${units * times} CU).`,
  overrideRule: (units: number) =>
    `eth_call, eth_estimateGas and eth_createAccessList with state or block overrides cost the override class: ${units} CU.`,
  notificationRule: (units: number) =>
    `A subscription's notification, and an eth_getFilterChanges answer, cost ${units} CU per started KiB delivered.`,
  unknownRule: (units: number) => `A method the table below does not list costs the trace class: ${units} CU.`,
  refusedRule: "Refused calls cost nothing: those a key's rules or limits turn away, or the gateway cannot read.",
  cachedRule: (units: number | null) =>
    units === null
      ? "A call answered from the gateway's cache costs the same as any other call of its method."
      : `A call answered from the gateway's cache costs ${units} CU.`,
  // the methods
  methods: 'Methods',
  method: 'Method',
  computeUnits: 'Compute units',
  priceClass: 'Class',
  perBlocks: (units: number, blocks: string) => `${units} per ${blocks} blocks`,
  searchMethods: 'Search methods',
  searchPlaceholder: 'e.g. eth_getLogs or debug_traceTransaction',
  pricedAs: (method: string, namespace: string) => `${method} is priced as ${namespace}.`,
  noMethods: 'No method or namespace of that name: such a method costs the trace class.',
  // what the last 30 days would cost
  estimate: 'What would my last 30 days cost',
  estimateIntro: (start: string, end: string) =>
    `This account's usage dated ${start} to ${end} (UTC), at today's prices. Billing's Service Usage History prices the same records.`,
  period: 'Period',
  periodText: (start: string, end: string) => `${start} to ${end} (UTC)`,
  calls: 'Calls',
  forwards: 'Token forwards',
  estimatedCost: 'Estimated cost',
  costText: (cents: string, exact: string) => `${cents} (${exact} USD)`,
  unpriced: (records: number) =>
    `${records} usage ${records === 1 ? 'record is' : 'records are'} left out: ${records === 1 ? 'its resource has' : 'their resources have'} no price today.`,
} as const;
