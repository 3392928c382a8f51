import { describe, expect, it } from 'vitest';
import { logsComputeUnits, notificationComputeUnits } from './pricing.ts';

describe('compute units', () => {
  it('prices eth_getLogs once per started 1 000 blocks, at most ten times, and once for a range not worked out', () => {
    expect(logsComputeUnits(5, 1n)).toBe(5);
    expect(logsComputeUnits(5, 1000n)).toBe(5);
    expect(logsComputeUnits(5, 1001n)).toBe(10);
    expect(logsComputeUnits(5, 9_999n)).toBe(50);
    expect(logsComputeUnits(5, 1_000_000n)).toBe(50);
    expect(logsComputeUnits(5, null)).toBe(5);
    expect(logsComputeUnits(0, 5000n)).toBe(0);
  });

  it('prices a notification once per started KiB', () => {
    expect(notificationComputeUnits(1, 1)).toBe(1);
    expect(notificationComputeUnits(1, 1024)).toBe(1);
    expect(notificationComputeUnits(1, 1025)).toBe(2);
    expect(notificationComputeUnits(2, 10 * 1024)).toBe(20);
  });
});
