import { createHmac } from 'node:crypto';
import { ACCOUNT_HEADER } from '@ebs/contract';
import fc from 'fast-check';
import type { RouteEntry } from '../app/app.ts';
import { asSent, exampleOf, type Invalid, invalidJson, invalidText, oddText, toJsonText } from './invalid-input.ts';
import { schemaAccepts } from './schema-accepts.ts';

type Schema = Record<string, unknown>;

/** One request as sent on the wire, with what makes it invalid. */
export interface BadRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: string | Buffer;
  why: string;
}

/** What a signed-in member of an account holds, for requests that must pass the guards. */
export interface Holder {
  idToken: string;
  /** The identity token of a session that has been signed out. */
  signedOutToken: string;
  accountId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_TYPE = 'application/json';

/** The routes the session guard covers: signed-in callers only, checked before anything else. */
export const isGuarded = (route: RouteEntry) =>
  route.url.startsWith('/api/') && !route.url.startsWith('/api/docs') && !route.public;

/** Percent-encoding that also writes a lone surrogate, as the (invalid) UTF-8 bytes naive encoders emit. */
export const encodeSegment = (value: string) =>
  [...value]
    .map((char) => {
      const unit = char.charCodeAt(0);
      if (char.length > 1 || unit < 0xd800 || unit > 0xdfff) return encodeURIComponent(char);
      return `%${(0xe0 | (unit >> 12)).toString(16)}%${(0x80 | ((unit >> 6) & 0x3f)).toString(16)}%${(0x80 | (unit & 0x3f)).toString(16)}`;
    })
    .join('');

const fillPath = (url: string, params: Record<string, unknown>, raw: Record<string, string> = {}) =>
  url.replace(/:([A-Za-z]+)/g, (_, name: string) => raw[name] ?? encodeSegment(String(params[name])));

export const queryText = (query: Record<string, unknown>) => {
  const pairs = Object.entries(query).flatMap(([name, value]) =>
    [value].flat().map((item) => `${encodeURIComponent(name)}=${encodeURIComponent(String(item))}`),
  );
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
};

const propertiesOf = (schema: Schema | undefined) => (schema?.properties ?? {}) as Record<string, Schema>;

/** A request to a route that passes every check: the base each invalid request changes in one place. */
export function validRequest(route: RouteEntry, holder: Holder) {
  const { params, querystring, headers, body } = route.schema as Record<string, Schema | undefined>;
  const paramValues = (params ? exampleOf(params) : {}) as Record<string, unknown>;
  const query = (querystring ? exampleOf(querystring) : {}) as Record<string, unknown>;
  const headerValues: Record<string, string> = { authorization: `Bearer ${holder.idToken}` };
  if (headers) Object.assign(headerValues, exampleOf(headers));
  if (route.accountScoped || ACCOUNT_HEADER in propertiesOf(headers)) headerValues[ACCOUNT_HEADER] = holder.accountId;
  const bodyValue = body ? exampleOf(body) : undefined;
  const build = (change: {
    params?: Record<string, unknown>;
    rawParams?: Record<string, string>;
    query?: Record<string, unknown>;
    headers?: Record<string, string | string[]>;
    body?: string | Buffer;
    contentType?: string | null;
    why: string;
  }): BadRequest => {
    const sentHeaders: Record<string, string | string[]> = { ...headerValues, ...change.headers };
    const sentBody = change.body ?? (bodyValue === undefined ? undefined : toJsonText(bodyValue));
    const contentType = change.contentType === undefined ? JSON_TYPE : change.contentType;
    if (sentBody !== undefined && contentType !== null) sentHeaders['content-type'] = contentType;
    return {
      method: route.method,
      path: fillPath(route.url, change.params ?? paramValues, change.rawParams) + queryText(change.query ?? query),
      headers: sentHeaders,
      body: sentBody,
      why: change.why,
    };
  };
  return { build, paramValues, query, headerValues, bodyValue };
}

/** Text that no JSON parser takes, and bytes that are not even UTF-8. */
export const notJson: fc.Arbitrary<{ body: string | Buffer; why: string }> = fc
  .oneof(
    fc
      .constantFrom(
        '{',
        '{"a":',
        "{'a':1}",
        'undefined',
        'NaN',
        '[1,]',
        '{"a":1}}',
        'tru',
        '\u0000',
        '{"a":"\\x"}',
        '\ufeff{',
      )
      .map((body) => ({ body, why: 'broken JSON' })),
    fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), oddText).map((body) => ({ body, why: 'text, not JSON' })),
    fc.constant({ body: Buffer.from([0xff, 0xfe, 0x7b, 0xc0, 0xaf]), why: 'bytes that are not UTF-8' }),
    fc.constant({ body: `{"a":"${'x'.repeat(1_100_000)}"}`, why: 'a body over the size limit' }),
  )
  .filter(({ body }) => {
    try {
      JSON.parse(body.toString());
      return false;
    } catch {
      return true;
    }
  });

const WRONG_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
  'image/png',
  null,
];

/** Path segments that are no value at all: traversal, broken or odd percent-encoding, very long. */
const PATH_JUNK = [
  '..',
  '../..',
  '..%2f..%2fetc%2fpasswd',
  '%2e%2e%2f',
  '%ZZ',
  '%',
  '%C0%AE%C0%AE',
  '%E2%80%AE',
  '%00',
  '%ED%A0%80',
  'a'.repeat(5000),
  ';x=1',
  '%20',
  '.',
];

/** Whether a raw path segment can reach the handler as a value this schema takes. */
function segmentAccepted(schema: Schema, raw: string): boolean {
  try {
    const value = decodeURIComponent(raw);
    return !raw.includes('/') && !value.includes('/') && schemaAccepts(schema, value);
  } catch {
    return false;
  }
}

const headerSafe = (value: string) => asSent('header', value);

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Authorization values that must not open a session: forged, tampered, stale, malformed or huge. */
export function badAuthorization(holder: Holder): fc.Arbitrary<Invalid> {
  const [header = '', payload = '', signature = ''] = holder.idToken.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  const other = '00000000-0000-4000-8000-000000000000';
  const hs256 = `${b64({ alg: 'HS256', typ: 'JWT' })}.${payload}`;
  const values: Invalid[] = [
    { value: `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`, why: 'alg none' },
    { value: `Bearer ${header}.${b64({ ...claims, sub: other })}.${signature}`, why: 'tampered subject' },
    { value: `Bearer ${header}.${b64({ ...claims, exp: 4102444800 })}.${signature}`, why: 'tampered expiry' },
    { value: `Bearer ${header}.${payload}.`, why: 'signature removed' },
    {
      value: `Bearer ${hs256}.${createHmac('sha256', '').update(hs256).digest('base64url')}`,
      why: 'HS256 with no key',
    },
    { value: `Bearer ${holder.idToken}x`, why: 'a character added' },
    { value: `Bearer  ${holder.idToken}`, why: 'two spaces' },
    { value: `bearer ${holder.idToken}`, why: 'lower-case scheme' },
    { value: `Token ${holder.idToken}`, why: 'another scheme' },
    { value: 'Basic dXNlcjpwYXNz', why: 'basic credentials' },
    { value: 'Bearer', why: 'no token' },
    { value: 'Bearer a.b.c', why: 'three junk parts' },
    { value: 'Bearer ...', why: 'dots only' },
    { value: `Bearer ${'A'.repeat(8000)}`, why: 'an 8 KB token' },
    { value: `Bearer ${'A'.repeat(20_000)}`, why: 'a 20 KB token, over the header limit' },
    { value: `Bearer ${holder.signedOutToken}`, why: 'a signed-out session' },
    { value: [`Bearer ${other}`, `Bearer ${holder.idToken}`], why: 'twice, junk first' },
  ];
  return fc.oneof(
    fc.constantFrom(...values),
    oddText.map((text) => ({ value: `Bearer ${headerSafe(text)}`, why: 'odd token' })),
  );
}

/** Values of ebs-account-id the guard refuses: not a UUID, an account of nobody, given twice. */
function badAccountHeader(holder: Holder, schema: Schema | undefined): fc.Arbitrary<Invalid> {
  const required = ((schema?.required ?? []) as string[]).includes(ACCOUNT_HEADER);
  // Whenever the header is given, the guard wants the UUID of an account of the caller.
  return fc
    .oneof(
      invalidText({ type: 'string', format: 'uuid' }, 'header'),
      fc.uuid().map((value) => ({ value, why: 'an account of nobody' })),
      fc.constant({ value: [holder.accountId, holder.accountId], why: 'given twice' }),
      fc.constant({ value: `urn:uuid:${holder.accountId}`, why: 'a URN' }),
    )
    .filter(({ value }: Invalid) => {
      if (typeof value !== 'string') return true;
      if (value === '') return required;
      return !(UUID.test(value) && value.toLowerCase() === holder.accountId.toLowerCase());
    });
}

/** Whether a header schema refuses any text a header can carry (a plain string takes them all). */
const hasTextRules = (schema: Schema) =>
  schema.type !== 'string' || ['pattern', 'format', 'minLength', 'maxLength', 'const', 'enum'].some((k) => k in schema);

/**
 * Every kind of invalid request a route can receive, each changing one part of a valid request;
 * undefined when the route declares nothing a request could get wrong.
 */
export function badRequests(route: RouteEntry, holder: Holder): fc.Arbitrary<BadRequest> | undefined {
  const { params, querystring, headers, body } = route.schema as Record<string, Schema | undefined>;
  const base = validRequest(route, holder);
  const kinds: fc.Arbitrary<BadRequest>[] = [];
  if (body) {
    kinds.push(invalidJson(body).map((bad) => base.build({ body: toJsonText(bad.value), why: `body: ${bad.why}` })));
    kinds.push(
      fc
        .constantFrom(...WRONG_TYPES)
        .map((contentType) => base.build({ contentType, why: `content type ${contentType}` })),
    );
  }
  if (BODY_METHODS.has(route.method)) {
    kinds.push(notJson.map(({ body: text, why }) => base.build({ body: text, why })));
  }
  if (querystring) {
    const properties = propertiesOf(querystring);
    const names = Object.keys(properties);
    const changes: fc.Arbitrary<{ query: Record<string, unknown>; why: string }>[] = [];
    if (names.length > 0) {
      changes.push(
        fc.constantFrom(...names).chain((name) =>
          invalidText(properties[name] as Schema, 'query').map((bad) => ({
            query: { ...base.query, [name]: bad.value },
            why: `query ${name}: ${bad.why}`,
          })),
        ),
      );
    }
    const required = ((querystring.required ?? []) as string[]).filter((n) => !('default' in (properties[n] ?? {})));
    if (required.length > 0) {
      changes.push(
        fc.constantFrom(...required).map((name) => {
          const { [name]: _, ...rest } = base.query;
          return { query: rest, why: `query without ${name}` };
        }),
      );
    }
    if (querystring.additionalProperties === false) {
      changes.push(
        fc.constantFrom('unexpected', '__proto__', 'constructor', 'toString').map((name) => ({
          query: { ...base.query, [name]: '1' },
          why: `query with ${name}`,
        })),
      );
    }
    if (changes.length > 0) {
      kinds.push(
        fc
          .oneof(...changes)
          .filter(({ query }) => !schemaAccepts(querystring, query))
          .map(({ query, why }) => base.build({ query, why })),
      );
    }
  }
  if (params) {
    const properties = propertiesOf(params);
    const names = Object.keys(properties);
    kinds.push(
      fc.constantFrom(...names).chain((name) =>
        fc.oneof(
          invalidText(properties[name] as Schema, 'path')
            .filter((bad) => typeof bad.value === 'string' && bad.value !== '')
            .map((bad) =>
              base.build({ params: { ...base.paramValues, [name]: bad.value }, why: `${name}: ${bad.why}` }),
            ),
          fc
            .constantFrom(...PATH_JUNK)
            .filter((raw) => !segmentAccepted(properties[name] as Schema, raw))
            .map((raw) => base.build({ rawParams: { [name]: raw }, why: `${name} as ${raw.slice(0, 20)}` })),
        ),
      ),
    );
  }
  for (const [name, property] of Object.entries(propertiesOf(headers))) {
    if (name === ACCOUNT_HEADER || !hasTextRules(property)) continue;
    kinds.push(
      invalidText(property, 'header')
        .filter((bad) => bad.value !== '')
        .map((bad) => base.build({ headers: { [name]: String(bad.value) }, why: `header ${name}: ${bad.why}` })),
    );
  }
  if (route.accountScoped) {
    kinds.push(
      badAccountHeader(holder, headers).map((bad) =>
        base.build({ headers: { [ACCOUNT_HEADER]: bad.value as string }, why: `${ACCOUNT_HEADER}: ${bad.why}` }),
      ),
    );
  }
  if (isGuarded(route)) {
    kinds.push(
      badAuthorization(holder).map((bad) =>
        base.build({ headers: { authorization: bad.value as string }, why: `authorization: ${bad.why}` }),
      ),
    );
  }
  return kinds.length > 0 ? fc.oneof(...kinds) : undefined;
}
