import { describe, expect, it } from 'vitest';
import { HEAD_READ, payloadNeed } from './node-need.ts';

const call = (method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id: 1, method, params });
const ADDRESS = '0x00000000000000000000000000000000000000aa';

describe('what calls need of a node', () => {
  it('reads the head for a tag, no block, a hash or a method that follows the head; a block number names the block', () => {
    expect(payloadNeed(call('eth_getBalance', [ADDRESS, 'latest']))).toMatchObject({ readsHead: true, newest: null });
    expect(payloadNeed(call('eth_getBalance', [ADDRESS]))).toMatchObject({ readsHead: true });
    expect(payloadNeed(call('eth_blockNumber'))).toMatchObject({ readsHead: true, kind: 'read', light: true });
    expect(payloadNeed(call('eth_getBlockByHash', [`0x${'ab'.repeat(32)}`, false]))).toMatchObject({ readsHead: true });
    expect(payloadNeed(call('eth_chainId'))).toMatchObject({ readsHead: false, newest: null });
    expect(payloadNeed(call('eth_call', [{ to: ADDRESS }, '0x10']))).toMatchObject({
      readsHead: false,
      newest: 16n,
      oldest: 16n,
      nullWhenMissing: false,
    });
    expect(payloadNeed(call('eth_getBlockByNumber', [{ blockNumber: '0x5' }, false]))).toMatchObject({
      newest: 5n,
      nullWhenMissing: true,
    });
    expect(payloadNeed(call('eth_getBalance', [ADDRESS, 'earliest']))).toMatchObject({ readsHead: false, oldest: 0n });
  });

  it('takes a batch whole: the newest and oldest blocks, the head if any call reads it, the strictest kind', () => {
    const need = payloadNeed([
      call('eth_getBalance', [ADDRESS, '0x64']),
      call('eth_getLogs', [{ fromBlock: '0x10', toBlock: '0x20' }]),
      call('eth_sendRawTransaction', ['0x02']),
    ]);
    expect(need).toMatchObject({
      kind: 'send',
      readsHead: true,
      newest: 100n,
      oldest: 16n,
      onlySends: false,
      light: false,
    });
    expect(
      payloadNeed([call('eth_sendRawTransaction', ['0x02']), call('eth_sendRawTransaction', ['0x03'])]),
    ).toMatchObject({
      kind: 'send',
      onlySends: true,
    });
    // A batch's null answers may be anything's: only a single block read's null means the node lacks it.
    expect(
      payloadNeed([
        call('eth_getBlockByNumber', ['0x5', false]),
        call('eth_getTransactionReceipt', [`0x${'ab'.repeat(32)}`]),
      ]),
    ).toMatchObject({ nullWhenMissing: false });
    // A logs filter to the head reads the head.
    expect(payloadNeed(call('eth_getLogs', [{ fromBlock: '0x10' }]))).toMatchObject({ readsHead: true, oldest: 16n });
  });

  it('never hedges logs, traces or debug calls, and treats what the table does not know as sent once', () => {
    expect(payloadNeed(call('debug_traceTransaction', [`0x${'ab'.repeat(32)}`]))).toMatchObject({ light: false });
    expect(payloadNeed(call('trace_block', ['0x1']))).toMatchObject({ light: false });
    expect(payloadNeed(call('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x2' }]))).toMatchObject({ light: false });
    expect(payloadNeed(call('txpool_content'))).toMatchObject({ kind: 'once', light: false });
    expect(payloadNeed(call('eth_newFilter', [{ fromBlock: '0x1', toBlock: '0x2' }]))).toMatchObject({
      kind: 'filter',
      newest: 2n,
    });
    expect(payloadNeed('not a call')).toEqual({ ...HEAD_READ, readsHead: false });
  });
});
