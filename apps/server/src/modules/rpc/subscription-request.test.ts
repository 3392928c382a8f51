import { RpcMessages } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { readSubscription } from './subscription-request.ts';

const A = '0x00000000000000000000000000000000000000aA';
const T = `0x${'Ab'.repeat(32)}`;

describe('eth_subscribe params', () => {
  it('takes the three kinds, normalised so that identical filters share one key', () => {
    expect(readSubscription(['newHeads'])).toEqual({ kind: 'newHeads', params: ['newHeads'], key: 'newHeads' });
    expect(readSubscription(['newPendingTransactions', true])).toMatchObject({
      params: ['newPendingTransactions', true],
    });
    const one = readSubscription(['logs', { topics: [T, null, [T]], address: A }]);
    const other = readSubscription(['logs', { address: A.toLowerCase(), topics: [T.toLowerCase(), null, [T]] }]);
    expect(one).toMatchObject({
      kind: 'logs',
      params: ['logs', { address: A.toLowerCase(), topics: [T.toLowerCase(), null, [T.toLowerCase()]] }],
    });
    expect(typeof one !== 'string' && typeof other !== 'string' && one.key === other.key).toBe(true);
    expect(readSubscription(['logs'])).toMatchObject({ kind: 'logs', filter: {} });
  });

  it.each([
    [[]],
    [['syncing']],
    [['newHeads', {}]],
    [['newPendingTransactions', 'yes']],
    [['logs', { address: '0x12' }]],
    [['logs', { address: [] }]],
    [['logs', { topics: [T, T, T, T, T] }]],
    [['logs', { topics: ['0x1'] }]],
    [['logs', { fromBlock: '0x1' }]],
    [['logs', [A]]],
    [['logs', {}, {}]],
    ['newHeads'],
  ])('refuses %j with what it takes', (params) => {
    expect(readSubscription(params)).toBe(RpcMessages.subscriptionKinds);
  });
});
