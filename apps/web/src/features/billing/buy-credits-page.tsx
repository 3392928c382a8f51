import { Col, Row, Typography } from 'antd';
import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { depositMinimum } from '../../lib/amount';
import { useSetting } from '../../lib/settings';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { AutoPayCard } from './auto-pay-card';
import { OneTimePayCard } from './one-time-pay-card';
import { SpendingCapCard } from './spending-cap-card';

/** /account/:accountId/billings/buyCredits (spec A §2): Make One Time Pay and Auto Pay; then the spending cap (ours). */
export function BuyCreditsPage() {
  const accountId = useParams().accountId ?? '';
  const deposit = useSetting('DEPOSIT');
  // spec A §5: the DEPOSIT setting's minAmount, or 1 when it could not be read.
  const minAmount = depositMinimum(deposit.data?.settings);

  useEffect(() => {
    if (deposit.error) toast.error(deposit.error);
  }, [deposit.error]);

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.buyCredits}</Typography.Title>
      </div>
      <Row gutter={[16, 16]} className="equal-height-cards">
        <Col xs={24} lg={12}>
          <OneTimePayCard accountId={accountId} minAmount={minAmount} />
        </Col>
        <Col xs={24} lg={12}>
          <AutoPayCard accountId={accountId} minAmount={minAmount} />
        </Col>
        <Col xs={24} lg={12}>
          <SpendingCapCard accountId={accountId} />
        </Col>
      </Row>
    </>
  );
}
