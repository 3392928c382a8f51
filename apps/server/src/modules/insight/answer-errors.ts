import { oneLine } from '@ebs/contract';

/**
 * What every error answer holds: an error object's `message` (JSON-RPC 2.0 requires its code and
 * message). Its `m` is in no part of a successful answer's frame nor in its hex values, so the
 * search of a node's bytes first looks for that one byte, which runs several times faster than a
 * search for the whole word (Node's indexOf with a Buffer needle: 4–7 µs on a batch's 2.3 KB answer
 * inside the busy gateway; with one byte, 0.8). A match is only a hint: the answer is then parsed.
 */
const ERROR_HINT = 'message"';
const ERROR_HINT_BYTES = Buffer.from(ERROR_HINT);
const HINT_FIRST_BYTE = ERROR_HINT.charCodeAt(0);

function holdsHint(body: string | Buffer): boolean {
  if (typeof body === 'string') return body.includes(ERROR_HINT);
  const first = body.indexOf(HINT_FIRST_BYTE);
  return first >= 0 && body.indexOf(ERROR_HINT_BYTES, first) >= 0;
}

/** The code an error answer without an integer code counts as (JSON-RPC's internal error). */
const UNKNOWN_CODE = -32603;

/** The code an answer's error member counts as: its integer code, else JSON-RPC's internal error; null for no error object. */
export function errorCodeOf(error: unknown): number | null {
  if (typeof error !== 'object' || error === null) return null;
  const code = (error as { code?: unknown }).code;
  return Number.isInteger(code) ? (code as number) : UNKNOWN_CODE;
}

function codeOf(answer: unknown): number | null {
  if (typeof answer !== 'object' || answer === null || !('error' in answer)) return null;
  return errorCodeOf((answer as { error: unknown }).error);
}

/**
 * Each call's JSON-RPC error code among its answers (matched by id; a single call by position), or
 * undefined when no answer is an error.
 */
export function errorsOfAnswers(
  answers: readonly unknown[],
  calls: ReadonlyArray<{ id?: unknown }>,
): Array<number | null> | undefined {
  let codes: Array<number | null>;
  if (calls.length === 1 && answers.length === 1) codes = [codeOf(answers[0])];
  else {
    const byId = new Map<string, number | null>();
    for (const answer of answers) {
      const id = typeof answer === 'object' && answer !== null ? (answer as { id?: unknown }).id : undefined;
      byId.set(JSON.stringify(id ?? null), codeOf(answer));
    }
    codes = calls.map((call) => byId.get(JSON.stringify(call.id ?? null)) ?? null);
  }
  return codes.some((code) => code !== null) ? codes : undefined;
}

/** The most of an error's message the request log keeps. */
export const MAX_ERROR_MESSAGE = 300;

/**
 * A message as the request log keeps it: cut to MAX_ERROR_MESSAGE, control characters (a NUL, which
 * PostgreSQL text refuses, line breaks) made spaces, and copied, so that it holds on to no larger text
 * it was cut from (a 1 MB revert reason).
 */
export function loggedMessage(message: string): string {
  const cut = oneLine(message.slice(0, MAX_ERROR_MESSAGE));
  return Buffer.from(cut, 'utf8').toString('utf8');
}

function firstMessage(answers: readonly unknown[]): string | undefined {
  for (const answer of answers) {
    const error = typeof answer === 'object' && answer !== null ? (answer as { error?: unknown }).error : undefined;
    const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
    if (typeof message === 'string') return loggedMessage(message);
  }
  return undefined;
}

/**
 * The same for an answer's text, with the first error's message for the request log: read only when
 * it holds an error's message, so a successful answer costs a search for one rare byte, and parsed
 * once. An answer the gateway composed itself is not searched: it notes each call's code as it goes
 * (ComposedAnswer.errorCodes, read with notedErrors).
 */
export function errorsAndMessageInAnswer(
  body: string | Buffer,
  calls: ReadonlyArray<{ id?: unknown }>,
): { codes: Array<number | null>; message: string | undefined } | undefined {
  if (!holdsHint(body)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body.toString());
  } catch {
    return undefined;
  }
  const answers = Array.isArray(value) ? value : [value];
  const codes = errorsOfAnswers(answers, calls);
  return codes ? { codes, message: firstMessage(answers) } : undefined;
}

/** Each call's error code in an answer's text (errorsAndMessageInAnswer without the message). */
export const errorsInAnswer = (
  body: string | Buffer,
  calls: ReadonlyArray<{ id?: unknown }>,
): Array<number | null> | undefined => errorsAndMessageInAnswer(body, calls)?.codes;

/** The codes the gateway noted while composing an answer, or undefined when none is an error. */
export const notedErrors = (codes: ReadonlyArray<number | null>): ReadonlyArray<number | null> | undefined =>
  codes.some((code) => code !== null) ? codes : undefined;
