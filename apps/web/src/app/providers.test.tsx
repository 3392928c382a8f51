import { act, cleanup, render, screen } from '@testing-library/react';
import { theme } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { unmatchedMediaQuery } from '../testing/page-test-kit';
import { Providers } from './providers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function MotionProbe() {
  const { token } = theme.useToken();
  return <p>{token.motion ? 'animated' : 'still'}</p>;
}

/** A browser whose "reduce motion" setting is `reduce`, and a way to change it as the user would. */
function stubMotionSetting(reduce: boolean) {
  const listeners = new Set<() => void>();
  vi.stubGlobal('matchMedia', (query: string) => ({
    ...unmatchedMediaQuery(query),
    get matches() {
      return query === '(prefers-reduced-motion: reduce)' && reduce;
    },
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  }));
  return (next: boolean) => {
    reduce = next;
    for (const listener of listeners) listener();
  };
}

describe('Providers and the reduce-motion setting', () => {
  it('animate menus and dialogs when the user has not asked for less motion', () => {
    stubMotionSetting(false);
    render(
      <Providers>
        <MotionProbe />
      </Providers>,
    );
    expect(screen.getByText('animated')).toBeTruthy();
  });

  it('turn the animations off when the user asks for less motion, and back on when they stop', () => {
    const setReduce = stubMotionSetting(true);
    render(
      <Providers>
        <MotionProbe />
      </Providers>,
    );
    expect(screen.getByText('still')).toBeTruthy();
    act(() => setReduce(false));
    expect(screen.getByText('animated')).toBeTruthy();
  });
});
