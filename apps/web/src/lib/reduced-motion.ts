import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

/** The operating system's "reduce motion" setting, where the browser tells it. */
const mediaQuery = (): MediaQueryList | undefined =>
  typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : undefined;

function subscribe(onChange: () => void): () => void {
  const list = mediaQuery();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}

const prefersReducedMotion = (): boolean => mediaQuery()?.matches === true;

/**
 * Whether the user asked for less motion (WCAG 2.3.3): menus, dialogs and charts then appear
 * without their animations. Follows the setting when it changes.
 */
export const useReducedMotion = (): boolean => useSyncExternalStore(subscribe, prefersReducedMotion);
