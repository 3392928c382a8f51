import type {
  ApiWrapper,
  AuthSession,
  Endpoint,
  EndpointBody,
  EndpointData,
  EndpointParams,
  EndpointQuery,
  EndpointQueryInput,
  HttpMethod,
} from '@ebs/contract';
import { endpointPath, endpoints, isErrorCode, isSuccessWrapper, Messages } from '@ebs/contract';
import { ApiError } from './api-error';
import { type RawResponse, type RequestOptions, send } from './http';
import { sessionLink } from './session-link';

export { ApiError } from './api-error';
export type { RequestOptions } from './http';

interface ErrorFields {
  message?: unknown;
  error?: unknown;
}

const fields = (body: unknown): ErrorFields => (body && typeof body === 'object' ? (body as ErrorFields) : {});

const messageText = (message: unknown) => (typeof message === 'string' ? message : JSON.stringify(message));

function unwrap<T>(response: RawResponse): T {
  const body = response.body as ApiWrapper<T> | null;
  if (isSuccessWrapper(body)) return (body as ApiWrapper<T>).data;
  const { message } = fields(body);
  throw new ApiError(message ? messageText(message) : Messages.unknownError, response.status, undefined, body);
}

function toError(response: RawResponse): Error {
  const { message, error } = fields(response.body);
  if (message !== undefined && message !== null && message !== '') {
    return new ApiError(messageText(message), response.status, isErrorCode(error) ? error : undefined, response.body);
  }
  return new ApiError(`Request failed with status code ${response.status}`, response.status, undefined, response.body);
}

let refreshing: Promise<AuthSession> | null = null;

/**
 * Renews the identity token from the refresh cookie and stores it. Callers that arrive while a
 * renewal is under way share it, so concurrent expired requests cause one refresh only.
 */
export function refreshIdToken(): Promise<AuthSession> {
  refreshing ??= (async () => {
    const response = await send(endpoints.identity.refresh.method, endpoints.identity.refresh.path);
    if (!response.ok) throw toError(response);
    const session = unwrap<AuthSession>(response);
    sessionLink().renewed(session);
    return session;
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function request<T>(
  method: HttpMethod,
  path: string,
  options: RequestOptions,
  retried: boolean,
  read: (response: RawResponse) => T = unwrap,
): Promise<T> {
  const response = await send(method, path, options);
  if (response.ok) return read(response);

  const { message, error } = fields(response.body);
  if (message === Messages.cognitoTokenExpired && !retried) {
    // Another request may already have renewed the token this one was sent with.
    if (response.sentToken === sessionLink().idToken()) {
      try {
        await refreshIdToken();
      } catch (refreshError) {
        await sessionLink().signOut();
        throw refreshError;
      }
    }
    return request<T>(method, path, options, true, read);
  }
  if (message === Messages.tokenExpired && error === 'Unauthorized') {
    await sessionLink().signOut();
  }
  throw toError(response);
}

/** What a call of `E` sends: its path parameters, query and body as the table types them. */
export type EndpointInput<E extends Endpoint> = Omit<RequestOptions, 'query' | 'body'> &
  (EndpointParams<E> extends undefined ? { params?: undefined } : { params: EndpointParams<E> }) &
  (EndpointQuery<E> extends undefined ? { query?: undefined } : { query: EndpointQueryInput<E> }) &
  (EndpointBody<E> extends undefined ? { body?: undefined } : { body: EndpointBody<E> });

type InputArgs<E extends Endpoint> =
  object extends EndpointInput<E> ? [input?: EndpointInput<E>] : [input: EndpointInput<E>];

/**
 * Calls an endpoint of the contract's table and answers the data of its success wrapper; errors
 * throw ApiError (spec A §8). An expired token is renewed once and the call sent again.
 */
export function api<E extends Endpoint>(endpoint: E, ...[input]: InputArgs<E>): Promise<EndpointData<E>> {
  const { params, query, body, ...options } = (input ?? {}) as EndpointInput<Endpoint> & { params?: object };
  const path = endpointPath(endpoint.path, params);
  return request<EndpointData<E>>(
    endpoint.method,
    path,
    { ...options, query: query as RequestOptions['query'], body },
    false,
  );
}

/** The data of a success wrapper with its message, for a toast in the server's own words. */
export interface WithMessage<T> {
  data: T;
  message: string;
}

/** Calls an endpoint as `api` does, and answers its data with the wrapper's message ('' when there is none). */
export function apiWithMessage<E extends Endpoint>(
  endpoint: E,
  ...[input]: InputArgs<E>
): Promise<WithMessage<EndpointData<E>>> {
  const { params, query, body, ...options } = (input ?? {}) as EndpointInput<Endpoint> & { params?: object };
  return request<WithMessage<EndpointData<E>>>(
    endpoint.method,
    endpointPath(endpoint.path, params),
    { ...options, query: query as RequestOptions['query'], body },
    false,
    (response) => {
      const data = unwrap<EndpointData<E>>(response);
      const { message } = fields(response.body);
      return { data, message: typeof message === 'string' ? message : '' };
    },
  );
}

/** Calls an endpoint that answers a file rather than the wrapper (a CSV export) and answers its text. */
export function apiText<E extends Endpoint>(endpoint: E, ...[input]: InputArgs<E>): Promise<string> {
  const { params, query, body, ...options } = (input ?? {}) as EndpointInput<Endpoint> & { params?: object };
  return request<string>(
    endpoint.method,
    endpointPath(endpoint.path, params),
    { ...options, query: query as RequestOptions['query'], body, raw: true },
    false,
    (response) => String(response.body),
  );
}
