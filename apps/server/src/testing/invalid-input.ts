import fc from 'fast-check';
import { schemaAccepts } from './schema-accepts.ts';

/**
 * Invalid values generated from a request schema (TypeBox, read as JSON Schema): wrong types,
 * missing and extra properties, text that breaks a length, pattern, format or constant, numbers
 * out of range, unicode oddities, prototype keys, arrays for objects, deep nesting, huge text.
 * Every value is checked against `schemaAccepts`, so none of them is one the server may take.
 */

type Schema = Record<string, unknown>;

/** A generated value with what is wrong with it, for the failure report. */
export interface Invalid {
  value: unknown;
  why: string;
}

/** JSON text sent as it is (deep nesting, numbers JSON.stringify cannot write); `standIn` is what the checker sees. */
export class RawJson {
  constructor(
    readonly text: string,
    readonly standIn: unknown,
  ) {}
}

/** JSON text of a generated value: raw parts as written, non-finite numbers as 1e400. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (typeof value === 'number' && !Number.isFinite(value)) return value < 0 ? '-1e400' : '1e400';
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${toJsonText(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The value as the server's JSON parser would hand it over (raw parts by their stand-ins). */
export function parsedForm(value: unknown): unknown {
  if (value instanceof RawJson) return value.standIn;
  if (Array.isArray(value)) return value.map(parsedForm);
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) define(copy, key, parsedForm(item));
    return copy;
  }
  return value;
}

/**
 * Fastify's JSON parser refuses any `__proto__` key and any `constructor` holding a `prototype`
 * (prototype poisoning), whatever the schema says.
 */
function poisoned(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  for (const [key, item] of Object.entries(value)) {
    if (key === '__proto__') return true;
    if (key === 'constructor' && typeof item === 'object' && item !== null && Object.hasOwn(item, 'prototype')) {
      return true;
    }
    if (poisoned(item)) return true;
  }
  return false;
}

/** True when the server must refuse this JSON body for this schema. */
export const bodyRefused = (schema: Schema, value: unknown) => {
  const parsed = parsedForm(value);
  return poisoned(parsed) || !schemaAccepts(schema, parsed);
};

/** An own property, even one named `__proto__`. */
function define(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

const withKey = (object: Record<string, unknown>, key: string, value: unknown) => define({ ...object }, key, value);
const without = (object: Record<string, unknown>, key: string) => {
  const copy = { ...object };
  delete copy[key];
  return copy;
};

const EXAMPLE_UUID = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

/** A valid value of a schema: the base a single mutation is applied to. */
export function exampleOf(schema: Schema): unknown {
  const example = exampleFor(schema);
  if (!schemaAccepts(schema, example)) throw new Error(`no valid example for ${JSON.stringify(schema)}`);
  return example;
}

function exampleFor(schema: Schema): unknown {
  if (Array.isArray(schema.anyOf)) return exampleFor(schema.anyOf[0] as Schema);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (schema.type) {
    case 'string': {
      if (schema.format === 'uuid') return EXAMPLE_UUID;
      if (typeof schema.pattern === 'string') {
        return fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { numRuns: 1, seed: 7 })[0];
      }
      const length = Math.min(Math.max(1, Number(schema.minLength ?? 1)), Number(schema.maxLength ?? 8));
      return 'a'.repeat(length);
    }
    case 'number':
    case 'integer': {
      const low = typeof schema.minimum === 'number' ? schema.minimum : 1;
      return typeof schema.maximum === 'number' ? Math.min(low, schema.maximum) : low;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const items = schema.items as Schema | undefined;
      const needed = Number(schema.minItems ?? 0);
      return items ? Array.from({ length: needed }, () => exampleFor(items)) : [];
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const object: Record<string, unknown> = {};
      for (const name of (schema.required ?? []) as string[]) {
        const property = properties[name];
        if (property) define(object, name, exampleFor(property));
      }
      return object;
    }
    default:
      return 'a';
  }
}

/** Text with the characters that break naive code: NUL, lone surrogates, direction overrides, quotes. */
const ODD = [
  '\u0000',
  '\ud800',
  '\udfff',
  '\u202e',
  '\u200f',
  '\u200b',
  '\ufeff',
  'e\u0301',
  '🦄',
  '\u{10ffff}',
  '\r\n',
  '\t',
  '\u2028',
  'İ',
  '%00',
  '\\',
  '"',
  "'; drop table users; --",
  '<script>',
  '{{7*7}}',
  '../',
];
export const oddText = fc
  .array(fc.oneof(fc.constantFrom(...ODD), fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join(''));

/** Text of exactly `length` code points, from wide or odd characters as well as plain ones. */
const textOfLength = (length: number) =>
  fc.constantFrom('a', 'é', '🦄', '\u202e', 'x\u0301').map((c) => c.repeat(length));

const HUGE = 300_000;

/** Text a string schema refuses: too long or short, off its pattern, format or constant, NUL or lone surrogates. */
function refusedText(schema: Schema): fc.Arbitrary<Invalid>[] {
  const options: fc.Arbitrary<Invalid>[] = [
    fc
      .constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy')
      .map((value) => ({ value, why: 'NUL or lone surrogate' })),
  ];
  if (typeof schema.maxLength === 'number') {
    const max = schema.maxLength;
    options.push(
      fc
        .integer({ min: max + 1, max: max + 40 })
        .chain(textOfLength)
        .map((value) => ({ value, why: `longer than ${max}` })),
      fc.constant({ value: 'y'.repeat(Math.max(HUGE, max * 10)), why: 'huge text' }),
    );
  }
  if (typeof schema.minLength === 'number' && schema.minLength > 0) {
    options.push(fc.constant({ value: '', why: 'empty text' }));
  }
  if (typeof schema.pattern === 'string' || typeof schema.format === 'string' || 'const' in schema) {
    const base = String(exampleFor(schema));
    options.push(
      fc.oneof(fc.string({ maxLength: 40 }), oddText).map((value) => ({ value, why: 'breaks the pattern' })),
      fc.tuple(fc.nat({ max: base.length }), fc.constantFrom(...ODD, 'x', ' ', '-', 'Z')).map(([at, odd]) => ({
        value: base.slice(0, at) + odd + base.slice(at),
        why: 'example with an odd character',
      })),
      fc
        .constantFrom(base.toUpperCase(), base.toLowerCase(), ` ${base}`, `${base}\n`, base.slice(1), `${base}0`)
        .map((value) => ({ value, why: 'near miss of the example' })),
    );
  }
  return options;
}

const wrongShapes: Invalid[] = [
  { value: {}, why: 'an object' },
  { value: { a: 1 }, why: 'an object' },
  { value: [], why: 'an empty array' },
  { value: [1, 2], why: 'an array' },
  { value: ['a', 'b'], why: 'an array of text' },
  { value: 'text', why: 'text' },
  { value: '', why: 'empty text' },
  { value: 12345, why: 'a number' },
  { value: -1.5, why: 'a fraction' },
  { value: Number.POSITIVE_INFINITY, why: '1e400' },
  { value: true, why: 'a boolean' },
  { value: null, why: 'null' },
  { value: 'maybe', why: 'a word' },
  { value: new RawJson(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`, { a: { a: 1 } }), why: 'nested 5000 deep' },
  { value: new RawJson(`${'['.repeat(5000)}${']'.repeat(5000)}`, [[[]]]), why: 'arrays nested 5000 deep' },
];

/** Keys that may not be added to a closed object, prototype keys among them. */
const EXTRA_KEYS = [
  'unexpected',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'isAdmin',
  '',
  '\u202eevil',
  'a\u0000',
];

/** Invalid JSON values for a schema (bodies, and the properties inside them). */
export function invalidJson(schema: Schema, depth = 0): fc.Arbitrary<Invalid> {
  const options: fc.Arbitrary<Invalid>[] = [fc.constantFrom(...wrongShapes)];
  const example = exampleFor(schema);
  const types = Array.isArray(schema.anyOf) ? (schema.anyOf as Schema[]) : [schema];
  for (const branch of types) {
    if (branch.type === 'string') options.push(...refusedText(branch));
    if (branch.type === 'number' || branch.type === 'integer') options.push(refusedNumber(branch));
    if (branch.type === 'object' && depth < 4) options.push(...refusedObject(branch, depth));
    if (branch.type === 'array' && depth < 4) {
      const items = (branch.items ?? {}) as Schema;
      const item = exampleFor(items);
      options.push(
        fc.constant({ value: [...Array(Number(branch.maxItems ?? 1000) + 1)].map(() => item), why: 'too many items' }),
        invalidJson(items, depth + 1).map((bad) => ({ value: [bad.value], why: `item: ${bad.why}` })),
      );
    }
  }
  options.push(fc.constant({ value: [example], why: 'the value inside an array' }));
  return fc.oneof(...options).filter((candidate) => bodyRefused(schema, candidate.value));
}

function refusedNumber(schema: Schema): fc.Arbitrary<Invalid> {
  const options: fc.Arbitrary<Invalid>[] = [
    fc.constantFrom('abc', '', 'NaN', '1,5', '--1', '0x1g', 'Infinity', '1e999').map((value) => ({
      value,
      why: 'not a number',
    })),
  ];
  if (typeof schema.minimum === 'number') {
    const min = schema.minimum;
    options.push(
      fc.integer({ min: 1, max: 1e9 }).map((d) => ({ value: min - d, why: `below ${min}` })),
      fc.constant({ value: Number.NEGATIVE_INFINITY, why: '-1e400' }),
    );
  }
  if (typeof schema.maximum === 'number') {
    const max = schema.maximum;
    options.push(fc.integer({ min: 1, max: 1e9 }).map((d) => ({ value: max + d, why: `above ${max}` })));
  }
  if (schema.type === 'integer') {
    const base = Number(exampleFor(schema));
    options.push(fc.constantFrom(0.5, 0.25, 1e-9).map((f) => ({ value: base + f, why: 'a fraction' })));
  }
  return fc.oneof(...options);
}

function refusedObject(schema: Schema, depth: number): fc.Arbitrary<Invalid>[] {
  const example = exampleFor(schema) as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const names = Object.keys(properties);
  const options: fc.Arbitrary<Invalid>[] = [
    fc.constantFrom(
      { value: withKey(example, '__proto__', { isAdmin: true }), why: '__proto__ pollution' },
      {
        value: withKey(example, 'constructor', { prototype: { isAdmin: true } }),
        why: 'constructor.prototype pollution',
      },
    ),
  ];
  if (names.length > 0) {
    options.push(
      fc.constantFrom(...names).chain((name) =>
        invalidJson(properties[name] as Schema, depth + 1).map((bad) => ({
          value: withKey(example, name, bad.value),
          why: `${name}: ${bad.why}`,
        })),
      ),
    );
  }
  const required = ((schema.required ?? []) as string[]).filter((name) => !('default' in (properties[name] ?? {})));
  if (required.length > 0) {
    options.push(fc.constantFrom(...required).map((name) => ({ value: without(example, name), why: `no ${name}` })));
  }
  if (schema.additionalProperties === false) {
    options.push(
      fc
        .tuple(fc.constantFrom(...EXTRA_KEYS), fc.constantFrom<unknown>(1, 'x', {}, null, [1]))
        .map(([key, value]) => ({ value: withKey(example, key, value), why: `extra property ${JSON.stringify(key)}` })),
    );
  }
  return options;
}

/** Where a text value travels: each part of a request carries text its own way. */
export type TextPart = 'query' | 'path' | 'header';

/** The text with each unpaired surrogate replaced by U+FFFD, as a UTF-8 encoder writes it. */
function wellFormed(text: string): string {
  // Iterating a string yields whole pairs, and a lone surrogate on its own.
  return [...text].map((char) => (char.length === 1 && /[\ud800-\udfff]/.test(char) ? '\ufffd' : char)).join('');
}

/**
 * The text as it arrives: a query value's lone surrogates become U+FFFD on decoding (they cannot
 * be sent), a header carries printable Latin-1 only and loses surrounding spaces.
 */
export function asSent(part: TextPart, text: string): string {
  if (part === 'query') return wellFormed(text);
  if (part === 'header') return text.replace(/[^\x21-\x7e]/g, '?');
  return text;
}

/**
 * Invalid text for one query, header or path value (those arrive as text, or as a list when a
 * query key repeats), refused by the value's schema once it has arrived.
 */
export function invalidText(schema: Schema, part: TextPart): fc.Arbitrary<Invalid> {
  const branches = Array.isArray(schema.anyOf) ? (schema.anyOf as Schema[]) : [schema];
  const choices: fc.Arbitrary<Invalid>[] = [
    fc.constantFrom('', ' ', 'abc', 'null', 'undefined', '-1', '1.5', '1e999', 'true', '[]', '{}').map((value) => ({
      value,
      why: 'a stray word',
    })),
    oddText.map((value) => ({ value, why: 'odd text' })),
  ];
  for (const branch of branches) {
    if (branch.type === 'string') choices.push(...refusedText(branch));
    if (branch.type === 'number' || branch.type === 'integer') {
      choices.push(refusedNumber(branch).map((bad) => ({ value: String(bad.value), why: bad.why })));
    }
  }
  if (part === 'query') {
    const example = String(exampleFor(schema));
    choices.push(fc.constant({ value: [example, `${example}x`], why: 'given twice' }));
  }
  return fc
    .oneof(...choices)
    .map(({ value, why }) => ({ value: typeof value === 'string' ? asSent(part, value) : value, why }))
    .filter((candidate) => !schemaAccepts(schema, candidate.value));
}
