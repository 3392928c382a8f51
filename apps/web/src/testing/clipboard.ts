import { onTestFinished, vi } from 'vitest';

/** jsdom has no clipboard: stands one in for the current test and answers its `writeText` mock. */
export function stubClipboard(writeText = vi.fn(async (_text: string) => {})) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  onTestFinished(() => {
    Reflect.deleteProperty(navigator, 'clipboard');
  });
  return writeText;
}
