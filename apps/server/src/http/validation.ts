import { badRequest, RPC_BASE_PATH } from '@ebs/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * A UUID as PostgreSQL's uuid type reads it. ajv-formats also takes the `urn:uuid:` form, which
 * the database refuses with an error instead of finding nothing.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An instant as RFC 3339 writes it, with its offset (`2027-01-01T00:00:00Z`, `…+02:00`): a time
 * without one would be read in the server's own zone.
 */
export const DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/i;

/** The schema validator: types coerced (query and headers arrive as text), defaults filled, strict UUIDs and instants. */
export const validatorOptions = {
  customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true },
  onCreate: (ajv: { addFormat(name: string, format: RegExp): unknown }) => {
    ajv.addFormat('uuid', UUID);
    ajv.addFormat('date-time', DATE_TIME);
  },
} as const;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;

/** Why a value cannot be used, or undefined when it can. */
function unusable(value: unknown): string | undefined {
  if (typeof value === 'string' && (value.includes('\u0000') || LONE_SURROGATE.test(value))) {
    return 'must be text without NUL characters or unpaired surrogates';
  }
  // The validator turns the text "Infinity" into a number and then skips its range checks.
  if (typeof value === 'number' && !Number.isFinite(value)) return 'must be a finite number';
  return undefined;
}

/** The first value of a request part that no column or query can take, with where it is. */
function findUnusable(part: string, root: unknown): string | undefined {
  const pending: Array<[string, unknown]> = [[part, root]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [where, value] = next;
    const problem = unusable(value);
    if (problem) return `${where} ${problem}`;
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, item] of Object.entries(value)) {
      if (unusable(key)) return `${where} has a key that ${unusable(key)}`;
      pending.push([`${where}.${key}`, item]);
    }
  }
  return undefined;
}

/**
 * After the schemas, refuses text holding NUL characters (PostgreSQL cannot store them and
 * answers with an error) or unpaired surrogates (stored as replacement characters, silently
 * changing the text), and numbers that are not finite. The JSON-RPC gateway is left alone: it
 * forwards its body as sent and answers its own refusals in JSON-RPC.
 */
export function refuseUnusableValues(app: FastifyInstance): void {
  app.addHook('preHandler', async (request: FastifyRequest) => {
    if (request.url.startsWith(`${RPC_BASE_PATH}/`)) return;
    const body = typeof request.body === 'object' ? request.body : undefined;
    const problem =
      findUnusable('params', request.params) ??
      findUnusable('querystring', request.query) ??
      findUnusable('body', body);
    if (problem) throw badRequest(problem);
  });
}
