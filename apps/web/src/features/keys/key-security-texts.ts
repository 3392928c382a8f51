/**
 * Interface texts of a key's details drawer: its security settings and the roll of its secret
 * (ours: the spec words none of them). The messages of refused entries live in the contract's
 * `KeyRuleMessages`, the toasts in `Messages`.
 */
export const KeySecurityTexts = {
  security: 'Security',
  apiKeyId: 'API Key ID',
  securityIntro:
    'Lock this key down: an empty list allows any, and a request outside a rule is refused by the RPC endpoints.',
  // the rule lists
  add: 'Add',
  remove: (entry: string) => `Remove ${entry}`,
  allowedOrigins: 'Allowed origins',
  anyOrigin: 'Any origin',
  originPlaceholder: 'https://app.example.com',
  addOrigin: 'Add origin',
  originsHint: 'e.g. https://app.example.com, or https://*.example.com for its subdomains',
  originsRefuseOthers:
    'With an origin rule, calls without an Origin or Referer header (servers, scripts, curl) are refused.',
  allowedIps: 'Allowed IP addresses',
  anyIp: 'Any IP address',
  ipPlaceholder: '203.0.113.0/24',
  addIp: 'Add IP address',
  ipsHint: 'IPv4 or IPv6 addresses and CIDR ranges, e.g. 203.0.113.7, 203.0.113.0/24 or 2001:db8::/32',
  allowedMethods: 'Allowed methods',
  anyMethod: 'Any method',
  methodsHint: 'Pick a method or type one, e.g. eth_call, or eth_* for a namespace',
  allowedContracts: 'Allowed contract addresses',
  anyContract: 'Any contract address',
  contractPlaceholder: '0x…',
  addContract: 'Add contract address',
  contractsHint: 'The contracts eth_call, eth_getLogs and the like may name: 0x and 40 hexadecimal digits',
  // limits and expiry
  requestsPerSecond: 'Requests per second',
  requestsPerDay: 'Requests per day (UTC)',
  noLimit: 'No limit',
  limitHint: "Empty: no limit of this key's own.",
  computeUnitsPerSecond: 'Compute units per second',
  computeUnitsPerDay: 'Compute units per day (UTC)',
  computeUnitsHint: 'What each method costs in compute units is on the Pricing page. Empty: no limit.',
  expiryDate: 'Expiry date (the key stops working at the end of this day, UTC)',
  neverExpires: 'Never expires',
  worksUntil: (instant: string) => `The key works until ${instant} UTC.`,
  // JWT-signed requests
  jwtRequired: 'Require JWT-signed requests',
  jwtHint: 'Every request must then carry Authorization: Bearer <JWT>, signed by one of the public keys below.',
  publicKeys: 'Public keys',
  noPublicKeys: 'No public keys',
  keyIdHint: "The key ID is the JWT header's kid.",
  copyKeyId: 'Copy key ID',
  addedOn: (date: string) => `Added ${date}`,
  newPublicKey: (n: number) => `New public key ${n}, saved with Save`,
  removePublicKey: (id: string) => `Remove public key ${id}`,
  removeNewPublicKey: (n: number) => `Remove new public key ${n}`,
  publicKeyPem: 'Public key (PEM)',
  pemPlaceholder: '-----BEGIN PUBLIC KEY-----\n…\n-----END PUBLIC KEY-----',
  addPublicKey: 'Add public key',
  publicKeysFull: (max: number) => `At most ${max} public keys: remove one to add another.`,
  // saving
  save: 'Save',
  nothingToSave: 'Nothing to save: no setting has changed.',
  leaveTitle: 'Leave without saving?',
  leaveText: "Your changes to this key's security settings are not saved yet; leaving drops them.",
  keepEditing: 'Keep editing',
  leave: 'Leave without saving',
  // rolling the secret
  rollKey: 'Roll key',
  rollHint: 'Make a new secret for this key; its key ID stays the same.',
  rollApiKey: 'Roll API Key',
  rollExplanation:
    'A new secret is made for this API key and shown once. Requests with the old secret are refused once the period below has passed.',
  overlap: 'Old secret stays valid for',
  overlaps: { 0: 'None', 3600: '1 hour', 86400: '24 hours', 604800: '7 days' },
  cancel: 'Cancel',
} as const;
