import { endpoints } from '@ebs/contract';
import { fireEvent, screen } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, failed, on, renderPage, serveEndpoints, setUpPageTests, wrapped } from '../../testing/page-test-kit';
import { UsageChartCard } from './usage-chart-card';

// jsdom has no canvas: the chart shows only that it was drawn.
vi.mock('../../components/echart', () => ({ EChart: () => <div data-testid="chart" /> }));

const ACCOUNT = '11111111-1111-4111-8111-111111111111';

setUpPageTests();

describe('UsageChartCard: a failed load', () => {
  it('keeps the chart area, says what to do, and Try again draws the chart', async () => {
    let attempt = 0;
    const calls = serveEndpoints(
      on(endpoints.usage.list, () => {
        attempt += 1;
        return attempt === 1 ? failed(503, 'Usage is resting') : wrapped({ accountResourceUsage: [], totalCount: 0 });
      }),
    );
    renderPage(
      `/account/${ACCOUNT}/overview`,
      '/account/:accountId/overview',
      <UsageChartCard
        title="Service Usage"
        accountId={ACCOUNT}
        resources={['RPC_API_POLYGON_MAINNET']}
        measure="usage"
        today={dayjs('2026-11-21')}
      />,
    );

    const failure = await screen.findByText(/Usage is resting Check your connection, then try again\./);
    expect(failure.closest('.overview-chart')).not.toBeNull();
    expect(screen.queryByTestId('chart')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('chart')).toBeTruthy();
    expect(callsTo(calls, endpoints.usage.list)).toHaveLength(2);
  });
});
