import { isChartedUsageResource } from '@ebs/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { Card, Col, Row, Statistic, Typography } from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import { useMonthlyUsage, useUsageResourceNames } from '../../api/usage-queries';
import { LoadFailed } from '../../components/load-state';
import { availableCredits } from '../../lib/format';
import { Texts } from '../../lib/texts';
import { monthToDate } from '../../lib/usage-month';
import { useAccountDetails } from '../../session/account-details';
import { useErrorToast, useMonthlyBill } from './overview-queries';
import { UsageChartCard } from './usage-chart-card';
import './overview.css';

const T = Texts.overview;

/** A summary card: a blank while its figure loads, the figure, or a failed load with Try again. */
function SummaryCard({
  title,
  query,
  children,
}: {
  title: string;
  query: UseQueryResult<unknown>;
  children: ReactNode;
}) {
  return (
    <Card title={title} loading={query.isLoading}>
      {query.error && query.data === undefined ? (
        <LoadFailed error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      ) : (
        children
      )}
    </Card>
  );
}

/** What a summary figure counts and when it posts, under the figure. */
const Note = ({ children }: { children: ReactNode }) => (
  <Typography.Paragraph type="secondary" className="summary-note">
    {children}
  </Typography.Paragraph>
);

/** /account/:accountId/overview (spec A §2): three summary cards, then the billing and usage charts. */
export function OverviewPage() {
  const accountId = useParams().accountId ?? '';
  // The day the page opened on: the month and the default ranges do not move while it stays open.
  const [today] = useState(() => dayjs().startOf('day'));
  const month = useMemo(() => monthToDate(today), [today]);

  const details = useAccountDetails(accountId);
  const bill = useMonthlyBill(accountId, month);
  const usage = useMonthlyUsage(accountId, month);
  const resources = useUsageResourceNames(accountId);
  const chartedUsage = useMemo(() => resources?.filter(isChartedUsageResource), [resources]);
  useErrorToast(details.error);
  useErrorToast(bill.error);
  useErrorToast(usage.error);

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.overview}</Typography.Title>
      </div>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12} xl={8}>
          <SummaryCard title={Texts.availableCredits} query={details}>
            <Statistic
              value={details.data ? availableCredits(details.data.balance, details.data.amountPending) : '-'}
            />
          </SummaryCard>
        </Col>
        <Col xs={24} md={12} xl={8}>
          <SummaryCard title={T.monthlyBill} query={bill}>
            <Statistic value={bill.data ?? '-'} suffix={bill.data === undefined ? undefined : T.usd} />
            <Note>
              {T.billCounts} {usage.data && T.notYetPosted(usage.data.unposted)}
            </Note>
          </SummaryCard>
        </Col>
        <Col xs={24} md={12} xl={8}>
          <SummaryCard title={T.monthlyApiCalls} query={usage}>
            <Statistic value={usage.data?.apiCalls ?? '-'} />
            <Note>
              {T.callsCount} {usage.data && T.forwardsApart(usage.data.forwards.toLocaleString('en-US'))}
            </Note>
          </SummaryCard>
        </Col>
      </Row>
      <Row gutter={[16, 16]} className="overview-charts equal-height-cards">
        <Col xs={24} xxl={12}>
          <UsageChartCard
            title={T.accountBilling}
            accountId={accountId}
            resources={resources}
            measure="price"
            today={today}
          />
        </Col>
        <Col xs={24} xxl={12}>
          <UsageChartCard
            title={T.serviceUsage}
            accountId={accountId}
            resources={chartedUsage}
            measure="usage"
            today={today}
          />
        </Col>
      </Row>
    </>
  );
}
