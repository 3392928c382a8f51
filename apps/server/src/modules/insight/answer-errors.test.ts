import { describe, expect, it } from 'vitest';
import { errorsInAnswer, errorsOfAnswers } from './answer-errors.ts';

describe('errors in a gateway answer', () => {
  it('finds nothing in a successful answer without reading it', () => {
    expect(errorsInAnswer('{"jsonrpc":"2.0","id":1,"result":"0x1"}', [{ id: 1 }])).toBeUndefined();
    expect(errorsInAnswer('{"result":"no \\"error\\" here"', [{ id: 1 }])).toBeUndefined();
    // Bytes from a node: an `m` without a message, and a message in a result (only a hint: the
    // answer is then read, and holds no error).
    const block = Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"timestamp":"0x1","number":"0x2"}}');
    expect(errorsInAnswer(block, [{ id: 1 }])).toBeUndefined();
    expect(errorsInAnswer('{"jsonrpc":"2.0","id":1,"result":{"message":"hi"}}', [{ id: 1 }])).toBeUndefined();
  });

  it('matches a batch’s error answers to their calls by id, in any order', () => {
    const body = JSON.stringify([
      { jsonrpc: '2.0', id: 'b', error: { code: -32602, message: 'bad' } },
      { jsonrpc: '2.0', id: 1, result: '0x1' },
      { jsonrpc: '2.0', id: 3, error: { code: 'odd', message: 'no integer code' } },
    ]);
    expect(errorsInAnswer(Buffer.from(body), [{ id: 1 }, { id: 'b' }, { id: 3 }])).toEqual([null, -32602, -32603]);
  });

  it('reads a single call’s answer by position', () => {
    expect(errorsOfAnswers([{ id: null, error: { code: -32601 } }], [{ id: 7 }])).toEqual([-32601]);
    expect(errorsOfAnswers([{ id: 7, result: [] }], [{ id: 7 }])).toBeUndefined();
  });
});
