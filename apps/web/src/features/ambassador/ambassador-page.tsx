import { Card, Col, List, Row, Space, Statistic, Typography } from 'antd';
import { useEffect } from 'react';
import { Navigate } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { CopyButton } from '../../components/copy-button';
import { paths } from '../../config/paths';
import { formatUsdTitle } from '../../lib/amount';
import { formatPercent } from '../../lib/format';
import { Texts } from '../../lib/texts';
import { toast } from '../../lib/toast';
import { useAmbassador } from './ambassador-queries';

/** What a missing code shows (spec B §9). */
const NO_CODE = '000000';
const T = Texts.ambassador;

/** spec B §2: the ambassador's balance, code, reward rate and linked users; others go to /accounts. */
export function AmbassadorPage() {
  const card = useAmbassador();
  const notAmbassador = card.error instanceof ApiError && card.error.status === 404;

  useEffect(() => {
    if (card.error && !notAmbassador) toast.error(card.error);
  }, [card.error, notAmbassador]);

  if (notAmbassador) return <Navigate to={paths.accounts} replace />;
  const data = card.data;
  const code = data?.code || NO_CODE;
  const percent = data ? formatPercent(data.rewardRate) : '';

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.ambassadorProgram}</Typography.Title>
      </div>
      {data && <Typography.Paragraph type="secondary">{T.howItWorks(percent)}</Typography.Paragraph>}
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <Card title={T.currentBalance} loading={card.isLoading}>
            <Statistic value={data ? formatUsdTitle(data.balance) : '-'} />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card
            title={T.code}
            loading={card.isLoading}
            extra={data?.code ? <CopyButton text={code} size="small" /> : null}
          >
            <Statistic value={code} groupSeparator="" />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card title={T.rewardRate} loading={card.isLoading}>
            <Statistic value={data ? percent : '-'} />
          </Card>
        </Col>
      </Row>
      <Card title={T.linkedUsers} loading={card.isLoading}>
        <List
          dataSource={data?.linkedUsers ?? []}
          locale={{ emptyText: T.noLinkedUsers }}
          renderItem={(user) => <List.Item>{user.email}</List.Item>}
        />
      </Card>
    </Space>
  );
}
