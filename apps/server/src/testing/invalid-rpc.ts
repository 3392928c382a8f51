import { API_KEY_ID_PARAM, API_KEY_PARAM, RPC_BASE_PATH, RPC_NETWORKS } from '@ebs/contract';
import fc from 'fast-check';
import { oddText, RawJson, toJsonText } from './invalid-input.ts';
import { type BadRequest, encodeSegment } from './invalid-request.ts';

/** An API key of a funded account, for calls that must pass the key check. */
export interface KeyPair {
  keyId: string;
  key: string;
}

const isCall = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  (value as { jsonrpc?: unknown }).jsonrpc === '2.0' &&
  typeof (value as { method?: unknown }).method === 'string';

/** JSON-RPC 2.0: one call object, or a non-empty batch of at most `maxBatch` of them. */
function isJsonRpc(text: string, maxBatch: number): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (Array.isArray(value)) return value.length > 0 && value.length <= maxBatch && value.every(isCall);
  return isCall(value);
}

const CALL = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] };

/** Bodies the gateway must refuse without forwarding them: not JSON, not JSON-RPC, too big. */
function junkBodies(maxBatch: number, maxBytes: number): fc.Arbitrary<{ text: string; why: string }> {
  const values: unknown[] = [
    {},
    [],
    [1],
    null,
    'eth_blockNumber',
    42,
    { jsonrpc: '2.0' },
    { jsonrpc: '2.0', method: 1, id: 1 },
    { jsonrpc: '1.0', method: 'eth_blockNumber', id: 1 },
    { method: 'eth_blockNumber', id: 1 },
    { jsonrpc: 2, method: 'eth_blockNumber', id: 1 },
    [CALL, { jsonrpc: '2.0' }],
    [...Array(maxBatch + 1)].map(() => CALL),
    new RawJson(`${'['.repeat(5000)}${']'.repeat(5000)}`, null),
  ];
  return fc
    .oneof(
      fc.constantFrom(...values).map((value) => ({ text: toJsonText(value), why: 'JSON that is not JSON-RPC' })),
      fc.jsonValue({ maxDepth: 3 }).map((value) => ({ text: JSON.stringify(value) ?? '', why: 'any JSON' })),
      fc.oneof(fc.string({ maxLength: 30 }), oddText).map((text) => ({ text, why: 'text' })),
      fc.constantFrom('{', '{"jsonrpc":"2.0",', '[{]', '\u0000', '').map((text) => ({ text, why: 'broken JSON' })),
      fc.constant({ text: `{"a":"${'x'.repeat(maxBytes)}"}`, why: 'over the size limit' }),
    )
    .filter(({ text }) => !isJsonRpc(text, maxBatch));
}

const keyQuery = (keyId: string, key: string) =>
  `?${new URLSearchParams({ [API_KEY_ID_PARAM]: keyId, [API_KEY_PARAM]: key }).toString()}`;

/**
 * Invalid calls to the RPC gateway: junk bodies with a valid key, a valid call with a wrong,
 * missing or malformed key, a valid call to a network that does not exist.
 */
export function badRpcCalls(pair: KeyPair, maxBatch: number, maxBytes: number): fc.Arbitrary<BadRequest> {
  const network = RPC_NETWORKS[0].path;
  const call = (path: string, query: string, body: string, why: string, headers = {}): BadRequest => ({
    method: 'POST',
    path: `${RPC_BASE_PATH}/${path}${query}`,
    headers: { 'content-type': 'application/json', ...headers },
    body,
    why,
  });
  const valid = JSON.stringify(CALL);
  const other = '00000000-0000-4000-8000-000000000000';
  return fc.oneof(
    junkBodies(maxBatch, maxBytes).map(({ text, why }) => call(network, keyQuery(pair.keyId, pair.key), text, why)),
    fc
      .constantFrom(
        { query: '', why: 'no key' },
        { query: keyQuery(pair.keyId, ''), why: 'no secret' },
        { query: keyQuery(pair.keyId, `${pair.key}x`), why: 'a wrong secret' },
        { query: keyQuery(other, pair.key), why: 'a key id of nobody' },
        { query: keyQuery(pair.key, pair.keyId), why: 'id and secret swapped' },
        { query: keyQuery('not-a-uuid', pair.key), why: 'a key id that is no UUID' },
        { query: keyQuery(`${pair.keyId}\u0000`, pair.key), why: 'a NUL in the key id' },
        { query: keyQuery(pair.keyId, 'k'.repeat(5000)), why: 'a huge secret' },
      )
      .map(({ query, why }) => call(network, query, valid, why)),
    fc
      .oneof(
        fc.constantFrom(
          'ethereum',
          'ethereum/',
          'ethereum/mainnet/x',
          '..%2f..',
          '%ZZ/x',
          'a/%00',
          `${'n'.repeat(3000)}/x`,
        ),
        oddText.map((text) => `${encodeSegment(text)}/${encodeSegment(text)}`),
      )
      .filter((path) => !RPC_NETWORKS.some((n) => n.path === path))
      .map((path) => call(path, keyQuery(pair.keyId, pair.key), valid, `network ${path.slice(0, 20)}`)),
  );
}
