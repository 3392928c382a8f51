import {
  API_KEY_ID_PARAM,
  API_KEY_ID_PLACEHOLDER,
  API_KEY_PARAM,
  API_KEY_PLACEHOLDER,
  type RpcNetwork,
} from '@ebs/contract';

/** What a first call needs: the network's URL (the key not in it) and the key, sent in headers. */
export interface CallTarget {
  /** The network's URL without the key: `https://…/api/v1.0/rpc/ethereum/mainnet`. */
  url: string;
  network: RpcNetwork;
  keyId: string;
  key: string;
}

export interface CallSnippet {
  id: 'curl' | 'viem' | 'ethers' | 'web3py';
  label: string;
  code: string;
}

/** The first call of every snippet: the latest block's number, which any key may ask of any network. */
const FIRST_CALL = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}';

/** A string literal that JavaScript and Python both read back as `text` (JSON's escapes are theirs too). */
const literal = (text: string) => JSON.stringify(text);

/** A shell word in single quotes: a quote in `text` ends the quoting, is escaped and reopens it. */
const shellWord = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

const keyIdOf = (target: CallTarget) => target.keyId.trim() || API_KEY_ID_PLACEHOLDER;
const keyOf = (target: CallTarget) => target.key.trim() || API_KEY_PLACEHOLDER;

/**
 * The first call as curl and as the three libraries developers reach for (viem, ethers, web3.py),
 * each with the key in headers, where proxies and server logs do not keep it.
 */
export function callSnippets(target: CallTarget): CallSnippet[] {
  const { url, network } = target;
  const id = keyIdOf(target);
  const key = keyOf(target);
  const headersJs = `{ ${literal(API_KEY_ID_PARAM)}: ${literal(id)}, ${literal(API_KEY_PARAM)}: ${literal(key)} }`;
  const headersPy = `{${literal(API_KEY_ID_PARAM)}: ${literal(id)}, ${literal(API_KEY_PARAM)}: ${literal(key)}}`;
  return [
    {
      id: 'curl',
      label: 'curl',
      code: [
        `curl -s ${shellWord(url)} \\`,
        `  -H ${shellWord(`${API_KEY_ID_PARAM}: ${id}`)} -H ${shellWord(`${API_KEY_PARAM}: ${key}`)} \\`,
        `  -H 'content-type: application/json' \\`,
        `  -d '${FIRST_CALL}'`,
      ].join('\n'),
    },
    {
      id: 'viem',
      label: 'viem',
      code: [
        `import { createPublicClient, http } from 'viem';`,
        '',
        'const client = createPublicClient({',
        `  transport: http(${literal(url)}, {`,
        `    fetchOptions: { headers: ${headersJs} },`,
        '  }),',
        '});',
        'console.log(await client.getBlockNumber());',
      ].join('\n'),
    },
    {
      id: 'ethers',
      label: 'ethers',
      code: [
        `import { FetchRequest, JsonRpcProvider } from 'ethers';`,
        '',
        `const request = new FetchRequest(${literal(url)});`,
        `request.setHeader(${literal(API_KEY_ID_PARAM)}, ${literal(id)});`,
        `request.setHeader(${literal(API_KEY_PARAM)}, ${literal(key)});`,
        `const provider = new JsonRpcProvider(request, ${network.chainId}, { staticNetwork: true });`,
        'console.log(await provider.getBlockNumber());',
      ].join('\n'),
    },
    {
      id: 'web3py',
      label: 'web3.py',
      code: [
        'from web3 import Web3',
        '',
        'w3 = Web3(Web3.HTTPProvider(',
        `    ${literal(url)},`,
        `    request_kwargs={"headers": ${headersPy}},`,
        '))',
        'print(w3.eth.block_number)',
      ].join('\n'),
    },
  ];
}
