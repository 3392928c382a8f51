import type { Readable } from 'node:stream';

/** Node answers up to this size are read whole; larger ones, or of unknown length, are streamed. */
export const BUFFERED_ANSWER_MAX_BYTES = 64 * 1024;

/**
 * What a node answered: its body read whole, or a stream to pass on as it comes (and its length);
 * `node` names the node (its key), for a filter made there.
 */
export type NodeAnswer = { status: number; contentType: string; node?: string } & (
  | { body: Buffer }
  | { stream: Readable; length: string | undefined }
);

/** No node of the network gave an answer (the caller gets 502, or 504 when the last one timed out). */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

/** A node's answer body, whole (a streamed one read to its end). */
export async function wholeBody(answer: NodeAnswer): Promise<Buffer> {
  return (await boundedBody(answer, Number.POSITIVE_INFINITY)) as Buffer;
}

/** A node's answer body, whole, or null once it is found larger than `maxBytes` (a stream is then dropped). */
export async function boundedBody(answer: NodeAnswer, maxBytes: number): Promise<Buffer | null> {
  if ('body' in answer) return answer.body.length > maxBytes ? null : answer.body;
  const { stream } = answer;
  const tooLarge = () => {
    stream.destroy();
    return null;
  };
  if (Number(answer.length) > maxBytes) return tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}

/** Drops an answer nobody will read (a hedge that lost): a stream is destroyed, which stops the node's. */
export function dropAnswer(answer: NodeAnswer): void {
  if ('stream' in answer) answer.stream.destroy();
}
