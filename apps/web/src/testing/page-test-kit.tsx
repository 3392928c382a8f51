import {
  type Endpoint,
  type EndpointBody,
  type EndpointData,
  type EndpointParams,
  matchEndpointPath,
} from '@ebs/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { toast } from '../lib/toast';

/** Helpers for page tests: a fetch stand-in that records calls, and a page rendered at a route. */

/** An answer of a stand-in; `T` is the data it wraps, so a stub of an endpoint answers the endpoint's type. */
export interface Reply<T = unknown> {
  status: number;
  body: unknown;
  readonly data?: T;
}

export interface FetchCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: string | undefined;
}

export const wrapped = <T,>(data: T, message = 'OK'): Reply<T> => ({
  status: 200,
  body: { statusCode: 200, message, data },
});

export const failed = (status: number, message: string, error = 'Bad Request'): Reply<never> => ({
  status,
  body: { statusCode: status, message, error },
});

/** Stubs fetch; the handler answers each call (now or later), or undefined for a 404. Answers the list of calls. */
export function serveFetch(handler: (call: FetchCall) => Reply | Promise<Reply | undefined> | undefined): FetchCall[] {
  const calls: FetchCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call: FetchCall = {
        url: String(url),
        method: init.method ?? 'GET',
        headers: (init.headers ?? {}) as Record<string, string>,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
        credentials: init.credentials,
      };
      calls.push(call);
      const reply = (await handler(call)) ?? failed(404, `No stub for ${call.method} ${call.url}`, 'Not Found');
      // A text body (a CSV file) goes as it is.
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      return new Response(text, { status: reply.status });
    }),
  );
  return calls;
}

/** A call of one endpoint, as its stand-in sees it: the path parameters, query and body it was sent with. */
export interface EndpointCall<E extends Endpoint> extends FetchCall {
  /** As the URL holds them: strings. */
  params: { [K in keyof EndpointParams<E>]: string };
  query: Record<string, string>;
  body: EndpointBody<E>;
}

export interface EndpointStub {
  endpoint: Endpoint;
  answer: (call: EndpointCall<Endpoint>) => Reply | Promise<Reply> | undefined;
}

/** The stand-in of an endpoint of the contract's table; answering undefined leaves the call to the next stub. */
export const on = <E extends Endpoint>(
  endpoint: E,
  answer: (call: EndpointCall<E>) => Reply<EndpointData<E>> | Promise<Reply<EndpointData<E>>> | undefined,
): EndpointStub => ({ endpoint, answer: answer as EndpointStub['answer'] });

export const endpointCall = (endpoint: Endpoint, call: FetchCall): EndpointCall<Endpoint> | undefined => {
  if (call.method !== endpoint.method) return undefined;
  const url = new URL(call.url, 'http://localhost');
  const params = matchEndpointPath(endpoint.path, url.pathname);
  return (
    params && {
      ...call,
      params: params as never,
      query: Object.fromEntries(url.searchParams),
      body: call.body as never,
    }
  );
};

/** Stubs fetch with stand-ins of endpoints, tried in order; a call none answers gets a 404. Answers the list of calls. */
export function serveEndpoints(...stubs: EndpointStub[]): FetchCall[] {
  return serveFetch(async (call) => {
    for (const stub of stubs) {
      const matched = endpointCall(stub.endpoint, call);
      const reply = matched && (await stub.answer(matched));
      if (reply) return reply;
    }
    return undefined;
  });
}

/** The calls made to `endpoint`, with their parameters, query and body. */
export const callsTo = <E extends Endpoint>(calls: FetchCall[], endpoint: E): EndpointCall<E>[] =>
  calls.flatMap((call) => {
    const matched = endpointCall(endpoint, call);
    return matched ? [matched as EndpointCall<E>] : [];
  });

/** A media query list that never matches: what jsdom would answer if it had matchMedia. */
export const unmatchedMediaQuery = (query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addListener: () => {},
  removeListener: () => {},
  addEventListener: () => {},
  removeEventListener: () => {},
  dispatchEvent: () => false,
});

/** A window `width` px wide: antd's min-width and max-width queries answer as a browser would. */
export function stubWindowWidth(width: number) {
  vi.stubGlobal('matchMedia', (query: string) => {
    const limits = [...query.matchAll(/(min|max)-width:\s*(\d+)px/g)];
    const matches = limits.every(([, side, px]) => (side === 'min' ? width >= Number(px) : width <= Number(px)));
    return { ...unmatchedMediaQuery(query), matches };
  });
}

/** antd's responsive helpers ask for matchMedia, which jsdom lacks. */
export function polyfillMatchMedia() {
  window.matchMedia ??= unmatchedMediaQuery as unknown as typeof window.matchMedia;
}

/**
 * Renders `element` at `path` (with the navigation state another page sent, if any) under
 * `pattern`; any other path shows "Elsewhere: {path}".
 */
export function renderPage(path: string | { pathname: string; state: unknown }, pattern: string, element: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={pattern} element={element} />
          <Route path="*" element={<Elsewhere />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function Elsewhere() {
  return <p>Elsewhere: {useLocation().pathname}</p>;
}

/**
 * The files a test's downloads save (lib/save-file.ts hands each Blob to an object URL): the list
 * fills as they are saved; `restore` puts the real URL functions back.
 */
export function captureSavedFiles() {
  const saved: Blob[] = [];
  const created = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    saved.push(blob as Blob);
    return 'blob:saved';
  });
  const revoked = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  return {
    saved,
    restore() {
      created.mockRestore();
      revoked.mockRestore();
    },
  };
}

const TOASTS = ['success', 'error', 'info'] as const;

/**
 * Replaces the toasts with spies for each test of the file, so a test asserts what was shown
 * (`expect(toast.success).toHaveBeenCalledWith(...)`) without antd's messages on screen; each
 * test ends with the real toasts back, for the next file sharing the worker's modules.
 */
export function spyOnToasts() {
  beforeEach(() => {
    for (const kind of TOASTS) vi.spyOn(toast, kind).mockReturnValue(undefined as never);
  });
  afterEach(() => {
    for (const kind of TOASTS) vi.mocked(toast[kind]).mockRestore();
  });
}

/**
 * The lifecycle every page test shares: a longer timeout (antd is slow in jsdom), a 1440 px wide
 * window (a test of the phone layout narrows it before rendering), toast spies for each test
 * (spyOnToasts), and a clean DOM and fetch after it.
 */
export function setUpPageTests() {
  vi.setConfig({ testTimeout: 40_000 });
  beforeAll(polyfillMatchMedia);
  spyOnToasts();
  beforeEach(() => stubWindowWidth(1440));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}
