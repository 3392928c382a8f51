import { Alert, Button, Card, Col, Row, Tabs, Tag, Typography } from 'antd';
// The component alone: antd's `Statistic` also carries its Countdown and Timer, unused here.
import Statistic from 'antd/es/statistic/Statistic';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { lazyDialog } from '../../components/lazy-dialog';
import { accountPath } from '../../config/paths';
import { brandName, maskedNumber } from '../../lib/card-display';
import { availableCredits } from '../../lib/format';
import { usePaymentCards } from '../../lib/payment-cards';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useAccountDetails } from '../../session/account-details';
import { TransactionTable } from './transaction-table';

// The second and third tabs: their tables load when the tab is first opened.
const UsageTable = lazyDialog(() => import('./usage-table').then((m) => m.UsageTable));
const PricesAndCost = lazyDialog(() => import('./prices-card').then((m) => m.PricesAndCost));

const T = Texts.billing;

/** The account's cards, the default first: brand, last four and which one pays. */
function CardList({ accountId }: { accountId: string }) {
  const cards = usePaymentCards(accountId).data ?? [];
  if (cards.length === 0) return null;
  const ordered = [...cards].sort((a, b) => Number(b.defaultPaymentMethod) - Number(a.defaultPaymentMethod));
  return (
    <ul className="billing-card-list" aria-label={T.accountCards}>
      {ordered.map(({ id, card, defaultPaymentMethod }) => (
        <li key={id}>
          {brandName(card.brand)} {maskedNumber(card.last4)}
          {defaultPaymentMethod && <Tag className="billing-card-default">{Texts.cards.default}</Tag>}
        </li>
      ))}
    </ul>
  );
}

/** /account/:accountId/billings/overview (spec A §2). */
export function BillingOverviewPage() {
  const accountId = useParams().accountId ?? '';
  const navigate = useNavigate();
  const details = useAccountDetails(accountId);

  useEffect(() => {
    if (details.error) toast.error(details.error);
  }, [details.error]);

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.billingsOverview}</Typography.Title>
      </div>
      <Row gutter={[16, 16]} className="equal-height-cards">
        <Col xs={24} md={12}>
          <Card title={Texts.availableCredits} loading={details.isLoading}>
            <Statistic
              value={details.data ? availableCredits(details.data.balance, details.data.amountPending) : '-'}
            />
            <Button
              type="primary"
              className="card-action"
              onClick={() => navigate(accountPath(accountId, 'buyCredits'))}
            >
              {T.buyCredits}
            </Button>
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card title={T.addPaymentCards}>
            <CardList accountId={accountId} />
            <Button onClick={() => navigate(accountPath(accountId, 'addPaymentCard'))}>{T.addCard}</Button>
          </Card>
        </Col>
      </Row>
      <Alert className="posting-delay" type="info" showIcon message={T.postingDelay} />
      <Tabs
        defaultActiveKey="transactions"
        items={[
          { key: 'transactions', label: T.transactionHistory, children: <TransactionTable accountId={accountId} /> },
          { key: 'usage', label: T.serviceUsageHistory, children: <UsageTable accountId={accountId} /> },
          { key: 'prices', label: T.pricesTab, children: <PricesAndCost accountId={accountId} /> },
        ]}
      />
    </>
  );
}
