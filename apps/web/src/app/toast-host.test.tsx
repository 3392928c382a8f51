import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toast } from '../lib/toast';
import { polyfillMatchMedia } from '../testing/page-test-kit';
import { ToastHost } from './toast-host';

beforeAll(polyfillMatchMedia);
afterEach(cleanup);

describe('toasts, spec B §8', () => {
  it('a new notification replaces the previous one', async () => {
    render(<ToastHost />);
    act(() => {
      toast.error(new Error('Incorrect username or password.'));
    });
    expect(await screen.findByText('Incorrect username or password.')).toBeTruthy();

    act(() => {
      toast.success('Password has been updated');
    });
    expect(await screen.findByText('Password has been updated')).toBeTruthy();
    expect(screen.queryByText('Incorrect username or password.')).toBeNull();

    act(() => {
      toast.error({ message: { code: 7 } });
    });
    expect(await screen.findByText('{"code":7}')).toBeTruthy();
    expect(screen.queryByText('Password has been updated')).toBeNull();
    expect(document.querySelectorAll('.ant-message-notice')).toHaveLength(1);
  });
});
