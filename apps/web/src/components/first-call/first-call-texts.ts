/** Interface texts of a first call: the snippets, the request runner and Add to MetaMask (ours). */
export const FirstCallTexts = {
  makeACall: 'Make a call',
  makeACallIntro: 'Pick a key and a network, then copy a snippet or send a request from here.',
  chooseKey: 'Key',
  chooseKeyPlaceholder: 'Choose one of your keys',
  keyMissing: "Paste this key's secret in API key above: it is kept in this tab's memory only.",
  network: 'Network',
  endpoint: 'URL (send the key in the x-api-key-id and x-api-key headers)',
  endpointWithKey: 'URL with the key in it (for wallets and tools that take only a URL)',
  copyEndpoint: 'Copy URL',
  copyEndpointWithKey: 'Copy URL with the key',
  copySnippet: (label: string) => `Copy ${label}`,
  snippets: 'Snippets',
  // the request runner
  tryIt: 'Try a request',
  method: 'Method',
  params: 'Params (a JSON array)',
  send: 'Send',
  paramsInvalid: 'Params must be a JSON array, e.g. [] or ["0x…", "latest"].',
  needKey: 'Choose a key and paste its secret first.',
  answeredIn: (status: number, ms: string) => `HTTP ${status} in ${ms} ms`,
  failedToSend: (reason: string) => `The request could not be sent: ${reason}`,
  answer: 'Answer',
  cutAt: (kb: number) => `(the answer is cut at ${kb} KB here)`,
  // a wallet
  addToMetaMask: 'Add to MetaMask',
  addToWalletHint: 'Your wallet keeps this network with the URL that carries your key.',
  addedToWallet: (network: string) => `${network} is in your wallet.`,
  // the first key of a new account
  createFirstKey: 'Create your first API key',
  firstKeyName: 'My first key',
  firstKeyIntro: 'Your key is ready. Copy it now: its secret is shown once. Then make your first call:',
} as const;
