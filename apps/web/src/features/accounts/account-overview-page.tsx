import { Card, Col, Row, Statistic } from 'antd';
import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { availableCredits } from '../../lib/format';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useAccountDetails } from '../../session/account-details';

/** /account/:accountId/overview; the charts and the monthly cards come with a later issue. */
export function AccountOverviewPage() {
  const accountId = useParams().accountId ?? '';
  const { data, isLoading, error } = useAccountDetails(accountId);

  useEffect(() => {
    if (error) toast.error(error);
  }, [error]);

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} md={12} xl={8}>
        <Card title={Texts.availableCredits} loading={isLoading}>
          <Statistic value={data ? availableCredits(data.balance, data.amountPending) : '-'} />
        </Card>
      </Col>
    </Row>
  );
}
