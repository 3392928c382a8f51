import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLASS_COMPUTE_UNITS } from './pricing.ts';
import {
  DEFAULT_REFUSED_METHODS,
  priceClassOf,
  RPC_METHOD_TABLE,
  type RpcCacheRule,
  type RpcContractTarget,
  type RpcMethodRule,
  rpcMethodRule,
  UNKNOWN_METHOD,
} from './rpc-methods.ts';

const API_DOC = path.join(import.meta.dirname, '../../../docs/api.md');
const START = '<!-- table of methods: start -->';
const END = '<!-- table of methods: end -->';

const cacheText = (cache: RpcCacheRule): string => {
  if (cache === 'never') return '—';
  if (cache === 'constant') return 'always';
  if (cache === 'in-answer') return "once the answer's block is final";
  if (cache === 'logs') return "once `toBlock` (or `blockHash`'s block) is final";
  return `once param ${cache.blockParam}'s block is final${cache.orHash ? ' (or by hash)' : ''}`;
};

const contractText = (contract: RpcContractTarget): string => {
  if (contract === 'none') return '—';
  if (contract === 'uncheckable') return 'refused';
  if (contract.in === 'address') return `param ${contract.param}`;
  if (contract.in === 'call')
    return `param ${contract.param}'s \`to\` (and Multicall3's inner calls), ≤ ${contract.maxParams} params`;
  if (contract.in === 'filter') return `param ${contract.param}'s \`address\``;
  return `param ${contract.param}'s signed \`to\``;
};

const refusedText = (rule: RpcMethodRule): string =>
  rule.refused === 'empty-list' ? 'answered `[]`' : rule.refused ? 'refused' : '—';

const yes = (value: boolean) => (value ? 'yes' : '—');

/** Which nodes a call may go to (docs/operations.md "Upstream nodes"): what it reads. */
const routedText = (rule: RpcMethodRule): string => {
  if (rule.class === 'constant') return 'any node';
  if (rule.class === 'subscription') return '—';
  if (rule.cache === 'logs' || rule.filterId === 'creates') return "the filter's blocks";
  if (rule.filterId === 'names') return "the filter's node";
  if (rule.blockParam === null) return 'the head';
  return `param ${rule.blockParam}'s block${rule.nullWhenMissing ? ' (null: the node lacks it)' : ''}`;
};

/** The table of methods as docs/api.md publishes it. */
function published(): string {
  const rows = Object.entries(RPC_METHOD_TABLE).map(([name, rule]) => row(`\`${name}\``, rule));
  return [
    '| method | class | merged | cached | routed by | range guard | key locked to contracts reads | by default | price class (CU) |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    row('any other method', UNKNOWN_METHOD),
  ].join('\n');
}

const row = (name: string, rule: RpcMethodRule) =>
  `| ${name} | ${rule.class} | ${yes(rule.merges)} | ${cacheText(rule.cache)} | ${routedText(rule)} | ${yes(rule.rangeGuard)} | ${contractText(rule.contract)} | ${refusedText(rule)} | ${rule.price} (${DEFAULT_CLASS_COMPUTE_UNITS[rule.price]}) |`;

describe('the table of methods', () => {
  it('is published in docs/api.md as it is', () => {
    const table = published();
    process.stdout.write(`${table}\n`);
    const doc = readFileSync(API_DOC, 'utf8');
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    expect(start).toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    const current = doc.slice(start + START.length, end).trim();
    // UPDATE_API_DOC=1 rewrites the copy after a change to the table.
    if (process.env.UPDATE_API_DOC === '1' && current !== table) {
      writeFileSync(API_DOC, `${doc.slice(0, start + START.length)}\n${table}\n${doc.slice(end)}`);
      return;
    }
    expect(current).toBe(table);
  });

  it('prices a call by its method’s class, and a call with state or block overrides as an override', () => {
    const { eth_call, eth_estimateGas } = RPC_METHOD_TABLE;
    expect(priceClassOf(rpcMethodRule('eth_chainId'), [])).toBe('free');
    expect(priceClassOf(rpcMethodRule('eth_getBalance'), ['0x1', 'latest'])).toBe('read');
    expect(priceClassOf(eth_call as RpcMethodRule, [{ to: '0x1' }, 'latest'])).toBe('read');
    expect(priceClassOf(eth_call as RpcMethodRule, [{ to: '0x1' }, 'latest', null])).toBe('read');
    expect(priceClassOf(eth_call as RpcMethodRule, [{ to: '0x1' }, 'latest', { '0x1': { code: '0x' } }])).toBe(
      'override',
    );
    expect(priceClassOf(eth_estimateGas as RpcMethodRule, [{}, 'latest', {}])).toBe('override');
    expect(priceClassOf(rpcMethodRule('eth_getLogs'), [{}])).toBe('logs');
    expect(priceClassOf(rpcMethodRule('debug_traceTransaction'), ['0x1'])).toBe('trace');
    expect(priceClassOf(rpcMethodRule('trace_block'), ['0x1'])).toBe('trace');
    expect(priceClassOf(rpcMethodRule('eth_sendRawTransaction'), ['0x'])).toBe('send');
  });

  it('finds a method by its exact name, then by its longest namespace, else as unknown', () => {
    expect(rpcMethodRule('eth_call')).toBe(RPC_METHOD_TABLE.eth_call);
    expect(rpcMethodRule('debug_traceTransaction')).toBe(RPC_METHOD_TABLE['debug_trace*']);
    expect(rpcMethodRule('debug_setHead')).toBe(RPC_METHOD_TABLE['debug_*']);
    expect(rpcMethodRule('eth_signTypedData_v4')).toBe(RPC_METHOD_TABLE['eth_signTypedData*']);
    expect(rpcMethodRule('txpool_content')).toBe(UNKNOWN_METHOD);
  });

  it('refuses the node’s administration, test and signing methods by default, and answers eth_accounts with none', () => {
    for (const method of [
      'admin_peers',
      'debug_setHead',
      'anvil_setBalance',
      'evm_mine',
      'eth_sendTransaction',
      'eth_sign',
    ]) {
      expect([method, rpcMethodRule(method).refused]).toEqual([method, true]);
    }
    expect(rpcMethodRule('eth_accounts').refused).toBe('empty-list');
    for (const method of ['eth_call', 'debug_traceTransaction', 'debug_getRawBlock', 'trace_block', 'txpool_content']) {
      expect([method, rpcMethodRule(method).refused]).toEqual([method, false]);
    }
    expect(DEFAULT_REFUSED_METHODS).toContain('debug_*');
    expect(DEFAULT_REFUSED_METHODS).not.toContain('debug_trace*');
  });
});
