import { ApiOutlined, BellOutlined, SwapOutlined } from '@ant-design/icons';
import { Card, Col, Row, Typography } from 'antd';
import { type ReactNode, useId } from 'react';
import { Link, useParams } from 'react-router-dom';
import { PriceList } from '../../components/price-list';
import { accountPath } from '../../config/paths';
import { Texts } from '../../lib/texts';
import { useTokenForwardingEnabled } from '../../session/token-forwarding';

const T = Texts.services;

interface ServiceCardProps {
  title: string;
  description: string;
  icon: ReactNode;
  /** Where the card leads; a card without it is not a link. */
  to?: string;
  /** More under the description (a card that is not a link may hold one). */
  footer?: ReactNode;
}

function ServiceCard({ title, description, icon, to, footer }: ServiceCardProps) {
  const titleId = useId();
  const descriptionId = useId();
  const card = (
    <Card hoverable={to !== undefined}>
      <Card.Meta
        avatar={icon}
        // antd cuts a card title with an ellipsis; the whole name must show, so it wraps.
        title={
          <span id={titleId} style={{ whiteSpace: 'normal' }}>
            {title}
          </span>
        }
        description={<span id={descriptionId}>{description}</span>}
      />
      {footer && <Typography.Paragraph className="service-card-footer">{footer}</Typography.Paragraph>}
    </Card>
  );
  if (!to) return card;
  // The link is named by the title alone and described by the description.
  return (
    <Link to={to} aria-labelledby={titleId} aria-describedby={descriptionId}>
      {card}
    </Link>
  );
}

/** /account/:accountId/services (spec B §2): the account's services, each leading to its page. */
export function ServicesPage() {
  const accountId = useParams().accountId ?? '';
  const tokenForwarding = useTokenForwardingEnabled(accountId);

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.services}</Typography.Title>
      </div>
      <Row gutter={[16, 16]} className="equal-height-cards">
        <Col xs={24} md={12}>
          <ServiceCard
            title={T.rpc}
            description={T.rpcDescription}
            icon={<ApiOutlined />}
            to={accountPath(accountId, 'rpc')}
          />
        </Col>
        <Col xs={24} md={12}>
          {tokenForwarding ? (
            <ServiceCard
              title={T.tokenForwarding}
              description={T.tokenForwardingDescription}
              icon={<SwapOutlined />}
              to={accountPath(accountId, 'wallets')}
            />
          ) : (
            <ServiceCard
              title={T.tokenForwardingComingSoon}
              description={T.tokenForwardingDescription}
              icon={<SwapOutlined />}
              footer={
                <>
                  {T.tokenForwardingAsk}
                  <Link
                    to={`${accountPath(accountId, 'contactUs')}?${new URLSearchParams({ message: T.tokenForwardingRequest })}`}
                  >
                    {T.tokenForwardingAskLink}
                  </Link>
                  .
                </>
              }
            />
          )}
        </Col>
        <Col xs={24} md={12}>
          <ServiceCard
            title={T.webhooks}
            description={T.webhooksDescription}
            icon={<BellOutlined />}
            to={accountPath(accountId, 'webhooks')}
          />
        </Col>
      </Row>
      <Typography.Paragraph className="services-pricing">
        {T.pricingIntro}
        <Link to={accountPath(accountId, 'pricing')}>{T.pricingLink}</Link>.
      </Typography.Paragraph>
      <PriceList accountId={accountId} />
    </>
  );
}
