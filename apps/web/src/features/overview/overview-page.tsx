import { isChartedUsageResource } from '@ebs/contract';
import { Card, Col, Row, Statistic } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import { availableCredits } from '../../lib/format';
import { Texts } from '../../lib/texts';
import { useAccountDetails } from '../../session/account-details';
import { useUsageResourceNames } from '../billing/usage-queries';
import { monthToDate } from './overview-dates';
import { useErrorToast, useMonthlyApiCalls, useMonthlyBill } from './overview-queries';
import { UsageChartCard } from './usage-chart-card';
import './overview.css';

const T = Texts.overview;

/** /account/:accountId/overview (spec A §2): three summary cards, then the billing and usage charts. */
export function OverviewPage() {
  const accountId = useParams().accountId ?? '';
  // The day the page opened on: the month and the default ranges do not move while it stays open.
  const [today] = useState(() => dayjs().startOf('day'));
  const month = useMemo(() => monthToDate(today), [today]);

  const details = useAccountDetails(accountId);
  const bill = useMonthlyBill(accountId, month);
  const calls = useMonthlyApiCalls(accountId, month);
  const resources = useUsageResourceNames(accountId);
  const chartedUsage = useMemo(() => resources?.filter(isChartedUsageResource), [resources]);
  useErrorToast(details.error);
  useErrorToast(bill.error);
  useErrorToast(calls.error);

  return (
    <>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12} xl={8}>
          <Card title={Texts.availableCredits} loading={details.isLoading}>
            <Statistic
              value={details.data ? availableCredits(details.data.balance, details.data.amountPending) : '-'}
            />
          </Card>
        </Col>
        <Col xs={24} md={12} xl={8}>
          <Card title={T.monthlyBill} loading={bill.isLoading}>
            <Statistic value={bill.data ?? '-'} suffix={bill.data === undefined ? undefined : T.usd} />
          </Card>
        </Col>
        <Col xs={24} md={12} xl={8}>
          <Card title={T.monthlyApiCalls} loading={calls.isLoading}>
            <Statistic value={calls.data ?? '-'} />
          </Card>
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
