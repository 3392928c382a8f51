import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { theme } from '../../config/theme';
import { keepAntdStyles } from '../../testing/antd-styles';
import { spyOnToasts } from '../../testing/page-test-kit';
import { ResendCodeLink } from './resend-code-link';

// The colours come from antd's stylesheet.
keepAntdStyles();
spyOnToasts();

const grey = 'rgba(0, 0, 0, 0.25)';
const blue = 'rgb(9, 88, 217)';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderLink(onResend: () => Promise<unknown>) {
  render(
    <ConfigProvider theme={theme}>
      <ResendCodeLink onResend={onResend} withCountdown />
    </ConfigProvider>,
  );
}

const link = () => screen.getByRole('button', { name: /Re-send code/ });

/** Lets the countdown tick `seconds` times, one second at a time. */
function waitSeconds(seconds: number) {
  for (let tick = 0; tick < seconds; tick++) act(() => vi.advanceTimersByTime(1000));
}

describe('the Re-send code link, spec B §2 and §4', () => {
  it('is grey with "in Ns" while the countdown runs, and turns blue when ready', () => {
    renderLink(async () => {});
    expect(link().textContent).toBe('Re-send code in 60s');
    expect(getComputedStyle(link()).color).toBe(grey);

    waitSeconds(59);
    expect(link().textContent).toBe('Re-send code in 1s');
    expect(getComputedStyle(link()).color).toBe(grey);

    waitSeconds(1);
    expect(link().textContent).toBe('Re-send code');
    expect(getComputedStyle(link()).color).toBe(blue);
  });

  it('resends only once the countdown reaches 0, and then starts it again at 60', async () => {
    const onResend = vi.fn(async () => {});
    renderLink(onResend);

    fireEvent.click(link());
    waitSeconds(30);
    fireEvent.click(link());
    expect(onResend).not.toHaveBeenCalled();

    waitSeconds(30);
    await act(async () => {
      fireEvent.click(link());
    });
    expect(onResend).toHaveBeenCalledTimes(1);
    expect(link().textContent).toBe('Re-send code in 60s');
    expect(getComputedStyle(link()).color).toBe(grey);

    fireEvent.click(link());
    expect(onResend).toHaveBeenCalledTimes(1);
  });
});
