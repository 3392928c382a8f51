/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, render } from '@testing-library/react';
import { ConfigProvider, Grid } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { theme } from '../config/theme';
import { unmatchedMediaQuery } from '../testing/page-test-kit';
import { breakpoints } from './breakpoints';

// Vitest hands style sheets to tests empty, so the test reads the file itself.
const styles = readFileSync(join(__dirname, '../app/styles.css'), 'utf8');

const specBreakpoints = [361, 577, 769, 993, 1201, 1401];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function ScreenProbe() {
  Grid.useBreakpoint();
  return null;
}

describe('layout breakpoints, spec B §2', () => {
  it('are 361, 577, 769, 993, 1201 and 1401 pixels', () => {
    expect(Object.values(breakpoints)).toEqual(specBreakpoints);
  });

  it("are the ones antd's responsive layout asks the browser about", () => {
    const queries: string[] = [];
    vi.stubGlobal('matchMedia', (query: string) => {
      queries.push(query);
      return unmatchedMediaQuery(query);
    });
    render(
      <ConfigProvider theme={theme}>
        <ScreenProbe />
      </ConfigProvider>,
    );
    const widths = queries.flatMap((query) =>
      [...query.matchAll(/(min|max)-width:\s*(\d+)px/g)].map(([, side, px]) =>
        side === 'max' ? Number(px) + 1 : Number(px),
      ),
    );
    // antd's smallest screen (xs) is everything below sm; 361 is the style sheet's, checked below.
    expect([...new Set(widths)].sort((a, b) => a - b)).toEqual(specBreakpoints.slice(1));
  });

  it('are the only widths the style sheet switches at', () => {
    const widths = [...styles.matchAll(/@media[^{]*\((min|max)-width:\s*(\d+)px\)/g)].map(([, side, px]) =>
      side === 'max' ? Number(px) + 1 : Number(px),
    );
    expect(widths.length).toBeGreaterThan(0);
    for (const width of widths) expect(specBreakpoints).toContain(width);
    expect(widths).toContain(breakpoints.xs);
  });
});
