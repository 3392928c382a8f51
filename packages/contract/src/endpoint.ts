import type { Static, TObject, TProperties, TSchema } from '@sinclair/typebox';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'OPTIONS';

/**
 * Who may call: anyone; a signed-in user; a member of the account named in `ebs-account-id` (the
 * server checks membership before it reads the body); the operator (the admin token, from this
 * machine); this machine only, outside production (the development outbox).
 */
export type Access = 'public' | 'user' | 'account' | 'operator' | 'local';

/**
 * One endpoint of the API: where it is, who may call it, what it takes and what it answers. The
 * server registers its route from this, the web client calls it through this, the OpenAPI
 * document and the page tests' stand-ins are built from it.
 */
export interface Endpoint {
  method: HttpMethod;
  /** Fastify's notation: `/api/v1.0/key/:apiKeyId/activate`. */
  path: string;
  access: Access;
  /** The OpenAPI document's group. */
  tag: string;
  summary?: string;
  /** The OpenAPI document's longer text. */
  description?: string;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  headers?: TSchema;
  /** The `data` of the success wrapper; absent when the answer is not the wrapper (a redirect, a file, HTML). */
  response?: TSchema;
  /** Left out of the OpenAPI document (operator and development calls). */
  hidden?: boolean;
}

/** Keeps an endpoint's literal types (its path, its schemas) for the types below. */
export const endpoint = <const E extends Endpoint>(definition: E): E => definition;

type Part<E, K extends string> = E extends { [P in K]: infer S extends TSchema } ? Static<S> : undefined;

export type EndpointParams<E extends Endpoint> = Part<E, 'params'>;
export type EndpointQuery<E extends Endpoint> = Part<E, 'query'>;
export type EndpointBody<E extends Endpoint> = Part<E, 'body'>;
export type EndpointHeaders<E extends Endpoint> = Part<E, 'headers'>;
/** What the success wrapper's `data` holds; unknown for an answer that is not the wrapper. */
export type EndpointData<E extends Endpoint> = E extends { response: infer S extends TSchema } ? Static<S> : unknown;

declare const hasDefault: unique symbol;
/** A schema with a default, which the server fills in when a request leaves the field out. */
export type TDefaulted<T extends TSchema> = T & { readonly [hasDefault]: true };
/** Marks a field whose schema holds a default, so that callers may leave it out (EndpointQueryInput). */
export const defaulted = <T extends TSchema>(schema: T): TDefaulted<T> => schema as TDefaulted<T>;

type DefaultedKeys<P extends TProperties> = { [K in keyof P]: P[K] extends TDefaulted<TSchema> ? K : never }[keyof P];

/** The query a caller sends: the endpoint's query, with the fields that have a default left optional. */
export type EndpointQueryInput<E extends Endpoint> = E extends { query: TObject<infer P> }
  ? Omit<Static<TObject<P>>, DefaultedKeys<P>> & Partial<Static<TObject<P>>>
  : EndpointQuery<E>;

/** `/api/v1.0/key/:apiKeyId` with `{ apiKeyId: 'a b' }` is `/api/v1.0/key/a%20b`. */
export function endpointPath(path: string, params: object | undefined): string {
  const values = (params ?? {}) as Record<string, unknown>;
  return path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined || value === null) throw new Error(`${path} needs the parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** Matches a request path against an endpoint's path and answers its parameters, or undefined. */
export function matchEndpointPath(path: string, pathname: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_match, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const found = new RegExp(`^${pattern}$`).exec(pathname);
  if (!found) return undefined;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1] as string)]));
}
