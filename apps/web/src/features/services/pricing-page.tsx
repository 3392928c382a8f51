import {
  DEFAULT_CLASS_COMPUTE_UNITS,
  displayResourceName,
  LOGS_BLOCKS_PER_UNIT,
  LOGS_MAX_UNITS,
  type PriceClass,
  type RpcPricing,
} from '@ebs/contract';
import { Card, Table, type TableProps, Typography } from 'antd';
import { useParams } from 'react-router-dom';
import { LoadFailed, tableLocale } from '../../components/load-state';
import { networkName } from '../../lib/format';
import { useTableScroll } from '../../lib/phone-table';
import { Texts } from '../../lib/texts';
import { CostEstimateCard } from './cost-estimate-card';
import { PricingMethods } from './pricing-methods';
import { usePricing } from './pricing-queries';
import { PricingTexts as T } from './pricing-texts';
import './pricing.css';

type NetworkPrice = RpcPricing['networks'][number];

const networkColumns: TableProps<NetworkPrice>['columns'] = [
  { title: T.network, dataIndex: 'network', key: 'network', render: networkName },
  { title: T.resource, dataIndex: 'resourceName', key: 'resourceName', render: displayResourceName },
  { title: T.usdPerMillionCu, dataIndex: 'usdPerMillionCu', key: 'usdPerMillionCu', align: 'right' },
];

/** A class's units as the server prices them, or its default while they load. */
const classUnits = (pricing: RpcPricing | undefined, name: PriceClass) =>
  pricing?.classes.find((c) => c.name === name)?.computeUnits ?? DEFAULT_CLASS_COMPUTE_UNITS[name];

/** The rules that make a call cost more or less than its method's units. */
function PricingRules({ pricing }: { pricing: RpcPricing | undefined }) {
  const rules = [
    T.costRule,
    T.batchRule,
    T.logsRule(classUnits(pricing, 'logs'), LOGS_BLOCKS_PER_UNIT.toLocaleString('en-US'), LOGS_MAX_UNITS),
    T.overrideRule(classUnits(pricing, 'override')),
    T.notificationRule(classUnits(pricing, 'notification')),
    T.unknownRule(classUnits(pricing, 'trace')),
    T.refusedRule,
    ...(pricing ? [T.cachedRule(pricing.cachedComputeUnits)] : []),
  ];
  return (
    <Card title={T.rules} className="pricing-card">
      <ul className="pricing-rules">
        {rules.map((rule) => (
          <li key={rule}>{rule}</li>
        ))}
      </ul>
    </Card>
  );
}

/**
 * /account/:accountId/services/pricing: each network's price per million compute units, the token
 * forwarding fee, each method's units with the rules, and what the account's last 30 days would cost.
 */
export function PricingPage() {
  const accountId = useParams().accountId ?? '';
  const pricing = usePricing();
  const scroll = useTableScroll();
  const failure = { error: pricing.error, onRetry: () => void pricing.refetch(), retrying: pricing.isFetching };

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{Texts.pageTitles.pricing}</Typography.Title>
      </div>
      <Typography.Paragraph type="secondary">{T.intro}</Typography.Paragraph>
      <Card title={T.networks} className="pricing-card">
        {pricing.isError && !pricing.data ? (
          <LoadFailed {...failure} />
        ) : (
          <>
            <Table<NetworkPrice>
              rowKey="network"
              size="small"
              columns={networkColumns}
              dataSource={pricing.data?.networks ?? []}
              loading={pricing.isPending}
              pagination={false}
              scroll={scroll}
              locale={tableLocale({ loading: pricing.isPending, hint: null })}
            />
            {pricing.data && (
              <Typography.Paragraph className="pricing-fee">
                {T.forwardingFee(pricing.data.forwardingFeeUsd)}
              </Typography.Paragraph>
            )}
          </>
        )}
      </Card>
      <CostEstimateCard accountId={accountId} />
      <PricingRules pricing={pricing.data} />
      {!(pricing.isError && !pricing.data) && (
        <PricingMethods methods={pricing.data?.methods} loading={pricing.isPending} />
      )}
    </>
  );
}
