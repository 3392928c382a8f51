import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { ErrorBoundary } from './error-boundary';

function Broken(): never {
  throw new Error('render failed');
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('ErrorBoundary', () => {
  it('shows its children while they render fine', () => {
    render(
      <ErrorBoundary>
        <p>All good</p>
      </ErrorBoundary>,
    );

    expect(screen.getByText('All good')).toBeTruthy();
  });

  it('replaces a child that throws while rendering with "Something went wrong."', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // React 18 rethrows render errors through a window error event in development; jsdom would
    // print them as uncaught unless the event is handled.
    const swallow = (event: ErrorEvent) => event.preventDefault();
    window.addEventListener('error', swallow);
    onTestFinished(() => window.removeEventListener('error', swallow));

    const { container } = render(
      <ErrorBoundary>
        <p>Before</p>
        <Broken />
      </ErrorBoundary>,
    );

    expect(container.textContent).toBe('Something went wrong.');
    expect(screen.getByText('Something went wrong.')).toBeTruthy();
    expect(screen.queryByText('Before')).toBeNull();
  });
});
