import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';

/** Helpers for page tests: a fetch stand-in that records calls, and a page rendered at a route. */

export interface Reply {
  status: number;
  body: unknown;
}

export interface FetchCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: string | undefined;
}

export const wrapped = (data: unknown, message = 'OK'): Reply => ({
  status: 200,
  body: { statusCode: 200, message, data },
});

export const failed = (status: number, message: string, error = 'Bad Request'): Reply => ({
  status,
  body: { statusCode: status, message, error },
});

/** Stubs fetch; the handler answers each call (now or later), or undefined for a 404. Answers the list of calls. */
export function serveFetch(handler: (call: FetchCall) => Reply | Promise<Reply> | undefined): FetchCall[] {
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
      return new Response(JSON.stringify(reply.body), { status: reply.status });
    }),
  );
  return calls;
}

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

/** Renders `element` at `path` under `pattern`; any other path shows "Elsewhere: {path}". */
export function renderPage(path: string, pattern: string, element: ReactNode) {
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
 * The lifecycle every page test shares: a longer timeout (antd is slow in jsdom), a 1440 px wide
 * window (a test of the phone layout narrows it before rendering), fresh toast mocks for each test,
 * and a clean DOM and fetch after it.
 */
export function setUpPageTests(toastMock: {
  success: (...args: never[]) => unknown;
  error: (...args: never[]) => unknown;
}) {
  vi.setConfig({ testTimeout: 40_000 });
  beforeAll(polyfillMatchMedia);
  beforeEach(() => {
    stubWindowWidth(1440);
    vi.mocked(toastMock.success).mockClear();
    vi.mocked(toastMock.error).mockClear();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}
