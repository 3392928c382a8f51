/**
 * Whether the server's validator accepts a value for a request schema: the JSON Schema keywords
 * the contract uses, read as Fastify's Ajv reads them (coerceTypes 'array', useDefaults,
 * ajv-formats), plus the server's own rules (apps/server/src/http/validation.ts): strict UUIDs and instants,
 * finite numbers, text that is well-formed Unicode without NUL characters. The property tests send only values this refuses, so an answer of 2xx
 * is a hole in the server, never a lax generator. A keyword it does not know throws: a new
 * keyword in the contract must be taught here before the tests trust their inputs.
 */
import { DATE_TIME } from '../http/validation.ts';

type Schema = Record<string, unknown>;

const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', '$id', 'hide', 'tags']);
const KNOWN = new Set([
  'type',
  'anyOf',
  'const',
  'enum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
]);

/** The formats request schemas use: ajv-formats' email, and the server's strict UUID (no urn: form). */
const FORMATS: Record<string, RegExp> = {
  'date-time': DATE_TIME,
  uuid: /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i,
  email:
    /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i,
};

const REFUSED = Symbol('refused');

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;

/** Text the server takes: well-formed UTF-16 (no lone surrogate) without NUL characters. */
export const isCleanText = (text: string) => !LONE_SURROGATE.test(text) && !text.includes('\u0000');

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Ajv's coercion of one value to one type, or REFUSED. */
function coerce(type: string, value: unknown): unknown {
  let data = value;
  if (type !== 'array' && Array.isArray(data) && data.length === 1) data = data[0];
  switch (type) {
    case 'string':
      if (typeof data === 'string') return data;
      if (typeof data === 'number' || typeof data === 'boolean') return String(data);
      return data === null ? '' : REFUSED;
    case 'number':
    case 'integer': {
      let n: unknown = REFUSED;
      if (typeof data === 'number') n = data;
      else if (typeof data === 'boolean') n = Number(data);
      else if (data === null) n = 0;
      else if (typeof data === 'string' && data !== '' && !Number.isNaN(Number(data))) n = Number(data);
      if (typeof n !== 'number' || !Number.isFinite(n)) return REFUSED;
      return type === 'integer' && !Number.isInteger(n) ? REFUSED : n;
    }
    case 'boolean':
      if (typeof data === 'boolean') return data;
      if (data === 'true' || data === 1) return true;
      if (data === 'false' || data === 0 || data === null) return false;
      return REFUSED;
    case 'null':
      return data === null || data === '' || data === 0 || data === false ? null : REFUSED;
    case 'object':
      return isPlainObject(data) ? data : REFUSED;
    case 'array':
      return Array.isArray(value) ? value : value === undefined ? REFUSED : [value];
    default:
      throw new Error(`no rule for type ${type}`);
  }
}

const codePoints = (text: string) => [...text].length;

function acceptsString(schema: Schema, text: string): boolean {
  if (!isCleanText(text)) return false;
  const length = codePoints(text);
  if (typeof schema.minLength === 'number' && length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) return false;
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(text)) return false;
  if (typeof schema.format === 'string') {
    const format = FORMATS[schema.format];
    if (!format) throw new Error(`no rule for format ${schema.format}`);
    if (!format.test(text)) return false;
  }
  return true;
}

function acceptsNumber(schema: Schema, n: number): boolean {
  if (typeof schema.minimum === 'number' && n < schema.minimum) return false;
  if (typeof schema.maximum === 'number' && n > schema.maximum) return false;
  if (typeof schema.exclusiveMinimum === 'number' && n <= schema.exclusiveMinimum) return false;
  if (typeof schema.exclusiveMaximum === 'number' && n >= schema.exclusiveMaximum) return false;
  return true;
}

function acceptsObject(schema: Schema, object: Record<string, unknown>): boolean {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  for (const name of (schema.required ?? []) as string[]) {
    if (!Object.hasOwn(object, name) && !('default' in (properties[name] ?? {}))) return false;
  }
  for (const [name, value] of Object.entries(object)) {
    if (!isCleanText(name)) return false;
    const property = properties[name];
    if (property) {
      if (!schemaAccepts(property, value)) return false;
    } else if (schema.additionalProperties === false) {
      return false;
    } else if (isPlainObject(schema.additionalProperties) && !schemaAccepts(schema.additionalProperties, value)) {
      return false;
    }
  }
  return true;
}

/** True when the server's validator would let this value through for this schema. */
export function schemaAccepts(schema: Schema, value: unknown): boolean {
  for (const keyword of Object.keys(schema)) {
    if (!KNOWN.has(keyword) && !ANNOTATIONS.has(keyword)) throw new Error(`no rule for keyword ${keyword}`);
  }
  if (Array.isArray(schema.anyOf)) {
    return (schema.anyOf as Schema[]).some((branch) => schemaAccepts(branch, value));
  }
  let data = value;
  if (typeof schema.type === 'string') {
    data = coerce(schema.type, value);
    if (data === REFUSED) return false;
  }
  if ('const' in schema && JSON.stringify(data) !== JSON.stringify(schema.const)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(data))) return false;
  if (typeof data === 'string') return acceptsString(schema, data);
  if (typeof data === 'number') return acceptsNumber(schema, data);
  if (isPlainObject(data)) return acceptsObject(schema, data);
  if (Array.isArray(data)) {
    if (typeof schema.minItems === 'number' && data.length < schema.minItems) return false;
    if (typeof schema.maxItems === 'number' && data.length > schema.maxItems) return false;
    const items = schema.items as Schema | undefined;
    return items === undefined || data.every((item) => schemaAccepts(items, item));
  }
  return true;
}
