import type { NodeAnswer } from './node-answer.ts';
import { resultJson } from './request-plan.ts';

/** A node's small answer shared by identical calls in flight, and its answer for another id, worked out once. */
export interface SharedAnswer {
  answer: Extract<NodeAnswer, { body: Buffer }>;
  tail?: { result: string } | { error: string } | null;
}

/** A caller waiting for an identical call in flight: told its shared answer (null: ask the nodes), or its failure. */
export interface Waiter {
  resolve: (shared: SharedAnswer | null) => void;
  reject: (error: unknown) => void;
}

/** A shared answer with the caller's id: the node's result (or error) read once, for every caller. */
export function joined(
  shared: SharedAnswer,
  id: unknown,
): { status: number; contentType: string; body: string | Buffer; cache: 'MISS' } {
  const { answer } = shared;
  if (shared.tail === undefined) {
    shared.tail = null;
    try {
      const value = JSON.parse(answer.body.toString('utf8')) as { result?: unknown; error?: unknown } | null;
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        shared.tail =
          value.error !== undefined
            ? { error: JSON.stringify(value.error) }
            : { result: JSON.stringify(value.result ?? null) };
      }
    } catch {
      // not JSON: every caller gets what the node sent
    }
  }
  const { tail } = shared;
  const body =
    tail === null
      ? answer.body
      : 'result' in tail
        ? resultJson(id, tail.result)
        : `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":${tail.error}}`;
  return { status: answer.status, contentType: answer.contentType, body, cache: 'MISS' };
}
