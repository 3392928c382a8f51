import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AnswerMemory, type HeldAnswer } from './answer-memory.ts';
import type { NodeAnswer } from './node-answer.ts';

const KIB = 1024;

/** A node's answer streamed in chunks of 16 KiB, with no length said up front (chunked). */
function streamed(bytes: number): NodeAnswer & { stream: Readable } {
  let left = bytes;
  const stream = new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const size = Math.min(16 * KIB, left);
      left -= size;
      this.push(Buffer.alloc(size, 0x61));
    },
  });
  return { status: 200, contentType: 'application/json', stream, length: undefined };
}

const whole = (answer: HeldAnswer | string): HeldAnswer => {
  if (typeof answer === 'string') throw new Error(`not held: ${answer}`);
  return answer;
};

describe('the answer memory', () => {
  it('reads a streamed answer no further than the largest one may be, and drops its stream', async () => {
    const memory = new AnswerMemory(1024 * KIB, 64 * KIB);
    const answer = streamed(1024 * KIB);
    expect(await memory.hold(answer, 64 * KIB, 'a')).toBe('too-large');
    expect(answer.stream.destroyed).toBe(true);
    expect(memory.held).toBe(0);
    // A length said up front past the bound: not read at all.
    const said = { ...streamed(1), length: String(65 * KIB) };
    expect(await memory.hold(said, 64 * KIB, 'a')).toBe('too-large');
  });

  it('answers busy once the process holds its capacity, and counts each answer until it is released once', async () => {
    const memory = new AnswerMemory(1024 * KIB, 256 * KIB);
    const held = [];
    for (const account of ['a', 'b', 'c', 'd'])
      held.push(whole(await memory.hold(streamed(250 * KIB), 256 * KIB, account)));
    expect(held[0]?.body.length).toBe(250 * KIB);
    expect(memory.held).toBe(1000 * KIB);
    expect(await memory.hold(streamed(100 * KIB), 256 * KIB, 'e')).toBe('busy');
    expect(memory.held).toBe(1000 * KIB);
    held[0]?.release();
    held[0]?.release();
    expect(memory.held).toBe(750 * KIB);
    for (const answer of held) answer.release();
    expect(memory.held).toBe(0);
  });

  it('keeps one account to a quarter of the process’s memory', async () => {
    const memory = new AnswerMemory(400 * KIB, 100 * KIB);
    const mine = whole(await memory.hold(streamed(90 * KIB), 100 * KIB, 'greedy'));
    expect(await memory.hold(streamed(20 * KIB), 100 * KIB, 'greedy')).toBe('busy');
    const theirs = whole(await memory.hold(streamed(90 * KIB), 100 * KIB, 'other'));
    mine.release();
    theirs.release();
    expect(memory.held).toBe(0);
  });

  it('lets a new request wait, first come first served, until a whole answer fits, or tells it there is no room', async () => {
    const memory = new AnswerMemory(200 * KIB, 100 * KIB);
    const big = whole(await memory.hold(streamed(50 * KIB), 100 * KIB, 'a'));
    const other = whole(await memory.hold(streamed(50 * KIB), 100 * KIB, 'b'));
    expect(memory.room(1000)).toBe(true);
    const third = whole(await memory.hold(streamed(10 * KIB), 100 * KIB, 'c'));
    const order: string[] = [];
    const waits = [memory.room(5000), memory.room(5000)].map((wait, i) =>
      Promise.resolve(wait).then((ok) => order.push(`${i}:${ok}`)),
    );
    expect(await memory.room(20)).toBe(false);
    third.release();
    await Promise.all(waits);
    expect(order).toEqual(['0:true', '1:true']);
    big.release();
    other.release();
  });
});
