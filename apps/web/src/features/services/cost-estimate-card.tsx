import { Card, Descriptions, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { LoadFailed } from '../../components/load-state';
import { centsText, estimateCost, exactText, lastDaysUtc } from './pricing-estimate';
import { usePricing, useUsageRecords } from './pricing-queries';
import { PricingTexts as T } from './pricing-texts';

const DAYS = 30;

const count = (n: number) => n.toLocaleString('en-US');

/**
 * What the account's usage of the last 30 days would cost at today's prices, to the cent and
 * exactly, with its calls and compute units.
 */
export function CostEstimateCard({ accountId }: { accountId: string }) {
  const [days] = useState(() => lastDaysUtc(DAYS));
  const pricing = usePricing();
  const usage = useUsageRecords(accountId, days);
  const estimate = useMemo(
    () => (pricing.data && usage.data ? estimateCost(usage.data, pricing.data) : undefined),
    [pricing.data, usage.data],
  );
  const failed = usage.isError ? usage : pricing.isError ? pricing : undefined;

  return (
    <Card title={T.estimate} className="pricing-card" loading={!estimate && !failed}>
      {failed ? (
        <LoadFailed error={failed.error} onRetry={() => void failed.refetch()} retrying={failed.isFetching} />
      ) : (
        estimate && (
          <>
            <Typography.Paragraph type="secondary">
              {T.estimateIntro(days.dateStart, days.dateEnd)}
            </Typography.Paragraph>
            <Descriptions
              size="small"
              column={1}
              bordered
              items={[
                { key: 'period', label: T.period, children: T.periodText(days.dateStart, days.dateEnd) },
                { key: 'calls', label: T.calls, children: count(estimate.calls) },
                { key: 'computeUnits', label: T.computeUnits, children: count(estimate.computeUnits) },
                { key: 'forwards', label: T.forwards, children: count(estimate.forwards) },
                {
                  key: 'cost',
                  label: T.estimatedCost,
                  children: (
                    <strong data-testid="pricing-estimate">
                      {T.costText(centsText(estimate.total), exactText(estimate.total))}
                    </strong>
                  ),
                },
              ]}
            />
            {estimate.unpriced > 0 && (
              <Typography.Paragraph className="pricing-note">{T.unpriced(estimate.unpriced)}</Typography.Paragraph>
            )}
          </>
        )
      )}
    </Card>
  );
}
